import ArgumentParser
import RippleKit

public struct RippleCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "ripple",
    abstract: "Find what a change touches, test only that, and bootstrap private assets.",
    version: "0.1.0"
  )
  public init() {}
}
