import ArgumentParser

/// `-c PATH`, shared by the commands that read rippled.yml.
struct ConfigOption: ParsableArguments {
  @Option(name: .shortAndLong, help: ArgumentHelp("The daemon's config file.", valueName: "PATH"))
  var config = "/etc/ripple/rippled.yml"
}
