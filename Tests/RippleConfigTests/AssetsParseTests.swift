import ConfigLoading
import RippleConfig
import RippleCore
import Testing

private let sha = String(repeating: "ab", count: 32)

/// One asset entry with `extra` lines appended (indented under the list item).
private func asset(_ extra: String = "", id: String = "audio", destination: String? = "Sources/App/Resources")
  -> String
{
  var text = "assets:\n  - id: \(id)\n    source: {https: [\"https://example.com/a.zip\"]}\n    sha256: \"\(sha)\"\n"
  if let destination { text += "    destination: \(destination)\n" }
  return text + extra
}

@Suite("ripple.yml assets and secrets")
struct AssetsParseTests {
  @Test func isowordsStyleConfigParses() throws {
    let text = """
      assets:
        - id: audio
          source:
            https: ["https://assets.example.com/audio.zip", "https://mirror.example.com/audio.zip"]
          sha256: "\(sha.uppercased())"
          size: 12_345
          credentials: {bearerTokenEnv: ISOWORDS_TOKEN}
          archive: {format: zip, stripComponents: 1, include: ["**/*.wav"], exclude: ["__MACOSX/**"], maxEntries: 50, maxExpandedBytes: 1000000}
          transform:
            command: [ffmpeg, -y, -i, "{input}", -b:a, "{bitrate}", "{output}"]
            files: ["**/*.wav"]
            output: "{stem}.mp3"
            requireVersion: {command: [ffmpeg, -version], contains: "ffmpeg version"}
            variants:
              - {name: full, variables: {bitrate: 64k}, destination: Sources/AppAudioLibrary/Resources}
              - {name: clip, variables: {bitrate: 32k}, destination: Sources/AppClipAudioLibrary/Resources/}
          placeholders: [{path: empty.mp3}]
        - id: fonts
          source: {s3: {endpoint: "https://s3.eu-west-1.amazonaws.com", bucket: b, key: fonts.tar.gz, region: eu-west-1, addressing: path}}
          sha256: "\(sha)"
          credentials: {aws: {accessKeyEnv: AWS_ACCESS_KEY_ID, secretKeyEnv: AWS_SECRET_ACCESS_KEY}}
          archive: {format: tar.gz}
          destination: ./Sources/Styleguide/Fonts
          placeholders: [{path: empty.otf, contents: ""}]
        - id: words
          source: {file: ../private/words.sqlite}
          sha256: "\(sha)"
          credentials: {netrc: true}
          destination: Sources/Dictionary/Resources
      secrets:
        - id: server
          template: Sources/ServerConfig/Secrets.swift.template
          output: Sources/ServerConfig/Secrets.swift
          values: {SECRET: ISOWORDS_SECRET}
          example: Sources/ServerConfig/Secrets.swift.example
      """
    let config = try ConfigLoader.parse(text, path: "ripple.yml").assets
    #expect(config.assets.map(\.id) == ["audio", "fonts", "words"])
    let audio = config.assets[0]
    #expect(audio.sha256 == sha)
    #expect(audio.size == 12_345)
    #expect(audio.credentials == .bearerTokenEnvironment(variable: "ISOWORDS_TOKEN"))
    #expect(
      audio.source == .https(urls: ["https://assets.example.com/audio.zip", "https://mirror.example.com/audio.zip"]))
    #expect(
      audio.archive
        == ArchiveSpec(
          format: .zip, stripComponents: 1, include: [Glob("**/*.wav")], exclude: [Glob("__MACOSX/**")], maxEntries: 50,
          maxExpandedBytes: 1_000_000))
    #expect(audio.destination == "")
    #expect(
      audio.installDestinations == ["Sources/AppAudioLibrary/Resources", "Sources/AppClipAudioLibrary/Resources"])
    #expect(audio.transform?.variants.map(\.variables) == [["bitrate": "64k"], ["bitrate": "32k"]])
    #expect(audio.transform?.requireVersion?.contains == "ffmpeg version")
    #expect(audio.placeholders == [PlaceholderSpec(path: "empty.mp3", contents: "")])
    let fonts = config.assets[1]
    #expect(
      fonts.source
        == .s3(
          S3Location(
            endpoint: "https://s3.eu-west-1.amazonaws.com", bucket: "b", key: "fonts.tar.gz", region: "eu-west-1",
            pathStyle: true)))
    #expect(
      fonts.credentials
        == .awsEnvironment(
          accessKeyVariable: "AWS_ACCESS_KEY_ID", secretKeyVariable: "AWS_SECRET_ACCESS_KEY", sessionTokenVariable: nil)
    )
    #expect(fonts.destination == "Sources/Styleguide/Fonts")
    #expect(config.assets[2].credentials == .netrc(path: nil))
    #expect(config.assets[2].source == .file(path: "../private/words.sqlite"))
    #expect(
      config.secrets == [
        SecretSpec(
          id: "server", template: "Sources/ServerConfig/Secrets.swift.template",
          output: "Sources/ServerConfig/Secrets.swift", values: ["SECRET": "ISOWORDS_SECRET"],
          example: "Sources/ServerConfig/Secrets.swift.example")
      ])
  }

  @Test(arguments: [
    ("abc", "64 hexadecimal characters, this one has 3"),
    (String(repeating: "g", count: 64), "is not hexadecimal"),
  ])
  func badChecksum(value: String, message: String) throws {
    let error = try failure(asset().replacingOccurrences(of: sha, with: value))
    #expect(error.keyPath == "assets[0].sha256")
    #expect(error.line == 4)
    #expect(error.message.contains(message))
  }

  @Test func duplicateIdsNameTheFirstLine() throws {
    let text = asset() + asset().replacingOccurrences(of: "assets:\n", with: "")
    let error = try failure(text)
    #expect(error.keyPath == "assets[1]")
    #expect(error.message == "duplicate asset id `audio`")
    #expect(error.hint == "the first one is at line 2")
  }

  @Test(arguments: ["/etc/app", "../outside", "Sources/../../x", "~/x", "."])
  func destinationOutsideTheRepository(destination: String) throws {
    let error = try failure(asset(destination: "\"\(destination)\""))
    #expect(error.keyPath == "assets[0].destination")
    #expect(error.line == 5)
  }

  @Test func unknownKeySuggestsTheClosest() throws {
    let error = try failure(asset("    placeholder: []\n"))
    #expect(error.keyPath == "assets[0].placeholder")
    #expect(error.hint == "did you mean `placeholders`?")
  }

  @Test func badTypes() throws {
    #expect(try failure("assets: {id: a}\n").message.contains("expected a list"))
    #expect(try failure(asset("    size: big\n")).message == "expected a whole number, found the string `big`")
    #expect(try failure(asset("    size: -1\n")).message.contains("out of range"))
    #expect(try failure(asset("    archive: {format: rar}\n")).hint == "expected one of: zip, tar, tar.gz")
    #expect(
      try failure(asset("    archive: {format: zip, stripComponents: \"1\"}\n")).keyPath
        == "assets[0].archive.stripComponents")
    #expect(try failure(asset("    credentials: {netrc: 3}\n")).keyPath == "assets[0].credentials.netrc")
    #expect(
      try failure(asset("    credentials: {bearerTokenEnv: \"sk-live 123\"}\n")).message.contains(
        "not an environment variable name"))
  }

  @Test func sourceNeedsExactlyOneKind() throws {
    let both = try failure(
      asset().replacingOccurrences(
        of: "{https: [\"https://example.com/a.zip\"]}", with: "{https: [\"https://a\"], file: x}"))
    #expect(both.keyPath == "assets[0].source")
    #expect(both.message == "give one source, not 2")
    let ftp = try failure(
      asset().replacingOccurrences(of: "https://example.com/a.zip", with: "ftp://example.com/a.zip"))
    #expect(ftp.message.contains("not an http(s) URL"))
  }

  @Test func missingRequiredKeys() throws {
    #expect(try failure("assets:\n  - id: a\n    source: {file: x}\n").message == "missing key `sha256`")
    #expect(try failure(asset(destination: nil)).message == "missing key `destination`")
  }

  @Test func transformCommandMustNotBeEmpty() throws {
    let error = try failure(asset("    transform: {command: [], output: \"{stem}.mp3\"}\n"))
    #expect(error.keyPath == "assets[0].transform.command")
    #expect(error.message == "the command is empty")
  }

  @Test(arguments: [("[ffmpeg, -i, \"{input}\", out.mp3]", "output"), ("[ffmpeg, x.wav, \"{output}\"]", "input")])
  func transformMustReadInputAndWriteOutput(command: String, token: String) throws {
    let error = try failure(asset("    transform: {command: \(command), output: \"{stem}.mp3\"}\n"))
    #expect(error.message == "the command never mentions `{\(token)}`")
  }

  @Test func unknownTransformVariableIsAnError() throws {
    let text = asset(
      """
          transform:
            command: [ffmpeg, -i, "{input}", -b:a, "{bitrat}", "{output}"]
            output: "{stem}.mp3"
            variants: [{name: full, variables: {bitrate: 64k}, destination: A}]

      """, destination: nil)
    let error = try failure(text)
    #expect(error.keyPath == "assets[0].transform.command[4]")
    #expect(error.message == "`{bitrat}` is not a known variable")
  }

  @Test func variantsAndDestinationAreExclusive() throws {
    let text = asset(
      """
          transform:
            command: [ffmpeg, -i, "{input}", "{output}"]
            output: "{stem}.mp3"
            variants: [{name: full, destination: A}]

      """)
    #expect(try failure(text).keyPath == "assets[0].destination")
  }

  @Test func placeholderPathsStayInTheDestination() throws {
    #expect(try failure(asset("    placeholders: [{path: ../x}]\n")).keyPath == "assets[0].placeholders[0].path")
  }

  @Test func secretsAreValidated() throws {
    let base = "secrets:\n  - {id: s, template: T.swift.template, output: T.swift, values: {KEY: MY_VAR}}\n"
    #expect(try ConfigLoader.parse(base, path: "r").assets.secrets.first?.values == ["KEY": "MY_VAR"])
    #expect(try failure(base + "  - {id: s, template: U, output: U.swift}\n").message == "duplicate secret id `s`")
    #expect(
      try failure(base.replacingOccurrences(of: "output: T.swift", with: "output: /tmp/T.swift")).keyPath
        == "secrets[0].output")
    #expect(
      try failure(base.replacingOccurrences(of: "MY_VAR", with: "\"abc def\"")).keyPath == "secrets[0].values.KEY")
    #expect(
      try failure(base.replacingOccurrences(of: "id: s,", with: "id: s, colour: red,")).message
        == "unknown key `colour`")
  }
}

@Suite("ripple.yml: bootstrap never writes into git's folder or Ripple's state")
struct ProtectedDestinationParseTests {
  @Test(arguments: [
    ".git/hooks", ".GIT/hooks", ".Git", "Sources/.git", "vendor/.git/hooks", ".git./hooks", "GIT~1/hooks",
    ".g\u{200C}it/hooks", ".build/ripple", ".build/ripple/receipts", ".Build/Ripple", ".build",
    "Sources/.ripple-staging.a.Resources",
  ])
  func protectedAssetDestination(destination: String) throws {
    let error = try failure(asset(destination: "\"\(destination)\""))
    #expect(error.keyPath == "assets[0].destination")
    #expect(error.line == 5)
    #expect(error.description.hasPrefix("ripple.yml:5:"))
  }

  @Test(arguments: ["Sources/.gitignore", "Sources/git/hooks", ".build/other", "Sources/App/.github"])
  func similarNamesAreFine(destination: String) throws {
    let config = try ConfigLoader.parse(asset(destination: "\"\(destination)\""), path: "ripple.yml")
    #expect(config.assets.assets.map(\.destination) == [destination])
  }

  @Test func protectedVariantDestination() throws {
    let text = asset(
      """
          transform:
            command: [ffmpeg, -i, "{input}", "{output}"]
            output: "{stem}.mp3"
            variants: [{name: full, destination: A}, {name: hook, destination: .git/hooks}]

      """, destination: nil)
    let error = try failure(text)
    #expect(error.keyPath == "assets[0].transform.variants[1].destination")
    #expect(error.line == 8)
  }

  @Test func protectedSecretOutput() throws {
    let text = "secrets:\n  - {id: s, template: T.swift.template, output: .git/hooks/pre-commit}\n"
    let error = try failure(text)
    #expect(error.keyPath == "secrets[0].output")
    #expect(error.line == 2)
  }

  @Test func protectedPlaceholderPath() throws {
    let error = try failure(
      asset("    placeholders: [{path: ok.txt}, {path: .git/hooks/pre-commit}]\n", destination: "Vendor"))
    #expect(error.keyPath == "assets[0].placeholders[1].path")
    #expect(error.line == 6)
  }

  @Test func placeholdersCollidingByCaseAreRefused() throws {
    let error = try failure(asset("    placeholders:\n      - {path: A.txt}\n      - {path: a.txt}\n"))
    #expect(error.keyPath == "assets[0].placeholders[1].path")
    #expect(error.line == 8)
    #expect(error.message.contains("differ only by case"))
    let nested = try failure(asset("    placeholders: [{path: x}, {path: X/y}]\n"))
    #expect(nested.keyPath == "assets[0].placeholders[1].path")
    #expect(nested.message.contains("as a file and as a folder"))
  }

  @Test func destinationsKeepTheirConfigLocation() throws {
    let text =
      asset(destination: "Sources/App/Resources")
      + "secrets:\n  - {id: s, template: T.swift.template, output: T.swift}\n"
    let config = try ConfigLoader.parse(text, path: "ripple.yml").assets
    let origin = try #require(config.assets[0].origins["Sources/App/Resources"])
    #expect(origin.line == 5 && origin.keyPath == "assets[0].destination" && origin.file == "ripple.yml")
    #expect(config.secrets[0].origins["T.swift"]?.keyPath == "secrets[0].output")
  }

  @Test func aURLErrorNeverQuotesThePassword() throws {
    let error = try failure(
      asset().replacingOccurrences(of: "https://example.com/a.zip", with: "ftp://user:hunter2@example.com/a.zip"))
    #expect(error.message.contains("not an http(s) URL"))
    #expect(!error.description.contains("hunter2"))
  }

  @Test func runtimeURLsAndFlattenParse() throws {
    let source = "{https: [\"https://example.com/a.zip\"]}"
    let fromEnv = try ConfigLoader.parse(
      asset().replacingOccurrences(of: source, with: "{https: {urlEnv: AUDIO_URL}}")
        + "    archive: {format: zip, flatten: true}\n", path: "ripple.yml"
    ).assets.assets[0]
    #expect(fromEnv.source == .runtimeURL(.environment(variable: "AUDIO_URL")))
    #expect(fromEnv.archive?.flatten == true)
    let fromCommand = try ConfigLoader.parse(
      asset().replacingOccurrences(
        of: source, with: "{https: {urlCommand: [heroku, config:get, AUDIO_URL, -a, isowords-staging]}}"),
      path: "ripple.yml"
    ).assets.assets[0]
    #expect(
      fromCommand.source == .runtimeURL(.command(["heroku", "config:get", "AUDIO_URL", "-a", "isowords-staging"])))
    let literal = try ConfigLoader.parse(
      asset().replacingOccurrences(of: source, with: "{https: {url: \"https://example.com/b.zip\"}}"),
      path: "ripple.yml"
    ).assets.assets[0]
    #expect(literal.source == .https(urls: ["https://example.com/b.zip"]))
  }

  @Test func runtimeURLSourcesAreOneAtATime() throws {
    let source = "{https: [\"https://example.com/a.zip\"]}"
    for given in [
      "{https: {urlEnv: AUDIO_URL, urlCommand: [heroku, config:get, AUDIO_URL]}}",
      "{https: {urlEnv: AUDIO_URL, url: \"https://user:hunter2@example.com/a\"}}",
      "{https: {urlCommand: [heroku], url: \"https://example.com/a\"}}",
    ] {
      let error = try failure(asset().replacingOccurrences(of: source, with: given))
      #expect(error.message == "give one URL source, not 2")
      #expect(error.hint == "one of: url, urlEnv, urlCommand")
      #expect(!error.description.contains("hunter2"))
    }
    let empty = try failure(asset().replacingOccurrences(of: source, with: "{https: {urlCommand: []}}"))
    #expect(empty.message == "the command is empty")
    let badName = try failure(asset().replacingOccurrences(of: source, with: "{https: {urlEnv: \"https://x\"}}"))
    #expect(badName.message.contains("is not an environment variable name"))
  }

  @Test func lfsSourcesNeedNoPinAndRefuseOne() throws {
    let lfs = """
      assets:
        - id: public-audio
          source: {lfs: {paths: ["Assets/Audio/**"], stripComponents: 2, flatten: true}}
          destination: Sources/App/Resources

      """
    let spec = try ConfigLoader.parse(lfs, path: "ripple.yml").assets.assets[0]
    #expect(spec.source == .lfs(LFSSource(paths: [Glob("Assets/Audio/**")], stripComponents: 2, flatten: true)))
    #expect(spec.sha256 == "")
    let pinned = try failure(lfs + "    sha256: \"\(sha)\"\n")
    #expect(pinned.message == "an lfs source takes no `sha256`")
    let empty = try failure(lfs.replacingOccurrences(of: "[\"Assets/Audio/**\"]", with: "[]"))
    #expect(empty.message == "no paths given")
    let unpinned = try failure(asset().replacingOccurrences(of: "    sha256: \"\(sha)\"\n", with: ""))
    #expect(unpinned.message == "missing key `sha256`")
  }
}
