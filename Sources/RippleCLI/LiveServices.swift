import ResultStoreLive
import RippleKit

extension RippleServices {
  /// `.live` with the pass-record stores (ResultStoreLive): what `ripple test` runs with. Other commands keep
  /// no pass records.
  static var liveWithResultStores: RippleServices {
    var services = RippleServices.live
    services.makeResultStore = { config, environment in
      try ResultStores.make(
        config, environment: environment, cacheDirectory: ResultStores.defaultCacheDirectory(environment: environment))
    }
    return services
  }
}
