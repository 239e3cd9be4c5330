import ResultStoreLive
import RippleKit

extension RippleServices {
  /// `.live` with the result stores (ResultStoreLive): `ripple test` (pass records, the shared history),
  /// `ripple affected` (`--base auto`, shards on the team's history) and `ripple flaky`.
  public static var liveWithResultStores: RippleServices {
    var services = RippleServices.live
    services.makeResultStore = { config, environment, repositoryRoot in
      try ResultStores.make(
        config, environment: environment, cacheDirectory: ResultStores.defaultCacheDirectory(environment: environment),
        repositoryRoot: repositoryRoot)
    }
    return services
  }
}
