import ArgumentParser
import RippleKit

struct CachePathCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "path",
    abstract: "Print the manifest cache directory (RIPPLE_CACHE_DIR/manifests, else the XDG cache)."
  )

  func run() throws {
    print(CacheJob.directory(services: .live))
  }
}
