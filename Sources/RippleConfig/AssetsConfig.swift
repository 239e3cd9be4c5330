import RippleCore

// The `assets:` and `secrets:` sections of ripple.yml (the bootstrap issue): values only. Parsing and
// validation (file/line errors, before anything is touched) live beside the other config parsers.

/// `assets:` — private files fetched into the repository's resource folders, never committed.
public struct AssetsConfig: Sendable, Hashable {
  public var assets: [AssetSpec]
  public var secrets: [SecretSpec]
  /// `generate:` — resources built by a command (AssetsGenerate.swift).
  public var generate: [GenerateSpec]

  public init(assets: [AssetSpec] = [], secrets: [SecretSpec] = [], generate: [GenerateSpec] = []) {
    self.assets = assets
    self.secrets = secrets
    self.generate = generate
  }
}

/// One asset: where it comes from, what it must hash to, and where its files go.
public struct AssetSpec: Sendable, Hashable {
  public var id: String
  public var source: AssetSource
  /// Lowercase hex SHA-256 of the downloaded bytes (the archive itself when `archive` is set). For an
  /// `lfs` source, empty in the config; the bootstrapper sets it to a digest of the pointers' oids.
  public var sha256: String
  public var size: Int64?
  public var credentials: CredentialReference
  public var archive: ArchiveSpec?
  /// Repo-relative folder the files are installed into (normally a target's resource folder).
  public var destination: String
  public var transform: TransformSpec?
  /// Files written instead, in public mode (no access): repo-relative path inside `destination` → contents.
  public var placeholders: [PlaceholderSpec]
  /// Where each install destination was written in the config (for errors found on disk).
  public var origins: PathOrigins

  public init(
    id: String, source: AssetSource, sha256: String, size: Int64? = nil, credentials: CredentialReference = .none,
    archive: ArchiveSpec? = nil, destination: String, transform: TransformSpec? = nil,
    placeholders: [PlaceholderSpec] = [], origins: PathOrigins = .init()
  ) {
    self.id = id
    self.source = source
    self.sha256 = sha256
    self.size = size
    self.credentials = credentials
    self.archive = archive
    self.destination = destination
    self.transform = transform
    self.placeholders = placeholders
    self.origins = origins
  }
}

public enum AssetSource: Sendable, Hashable {
  /// One or more mirror URLs, tried in order. `http://` only with `--allow-insecure-http`.
  case https(urls: [String])
  /// One URL known only at run time (`urlEnv`, `urlCommand`): a pre-signed link is itself the secret, so
  /// it is never written to the config, receipts, output or errors (any URL shown is redacted).
  case runtimeURL(RuntimeURL)
  case s3(S3Location)
  /// A local or network-mounted path (absolute, or relative to the repository root).
  case file(path: String)
  /// Git LFS objects of this repository, fetched with git-lfs and verified against their pointers' oids
  /// (so the asset's `sha256` is not written in the config).
  case lfs(LFSSource)
}

/// `source: {lfs: {paths: [Assets/Audio/**], stripComponents: 2, flatten: true}}`.
public struct LFSSource: Sendable, Hashable {
  /// Repo-relative globs of tracked files that are LFS pointers; each must match at least one.
  public var paths: [Glob]
  /// Leading path components dropped from each file's repo-relative path (as for archives).
  public var stripComponents: Int
  /// Install each file by its base name (two files with one name are an error naming both).
  public var flatten: Bool

  public init(paths: [Glob], stripComponents: Int = 0, flatten: Bool = false) {
    self.paths = paths
    self.stripComponents = stripComponents
    self.flatten = flatten
  }
}

/// Where a run-time URL comes from. Its absence means "no access" (placeholders, or exit 3 with
/// `--require-private`).
public enum RuntimeURL: Sendable, Hashable {
  /// `https: {urlEnv: AUDIO_URL}`: the value of the variable.
  case environment(variable: String)
  /// `https: {urlCommand: [heroku, config:get, AUDIO_URL]}`: the command's trimmed standard output
  /// (argv, no shell).
  case command([String])

  /// Safe to print: the variable or the command, never the URL.
  public var description: String {
    switch self {
    case .environment(let variable): "$\(variable)"
    case .command(let argv): "`" + argv.joined(separator: " ") + "`"
    }
  }
}

public struct S3Location: Sendable, Hashable {
  /// e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:5000` (tests, MinIO, moto).
  public var endpoint: String
  public var bucket: String
  public var key: String
  public var region: String
  /// Path-style (`endpoint/bucket/key`) instead of virtual-host (`bucket.endpoint/key`) addressing.
  public var pathStyle: Bool

  public init(endpoint: String, bucket: String, key: String, region: String, pathStyle: Bool) {
    self.endpoint = endpoint
    self.bucket = bucket
    self.key = key
    self.region = region
    self.pathStyle = pathStyle
  }
}

/// Credentials by reference only: the config names where a secret is, never the secret.
public enum CredentialReference: Sendable, Hashable {
  case none
  /// `Authorization: Bearer <value of the variable>`.
  case bearerTokenEnvironment(variable: String)
  /// Login and password for the URL's host from a netrc file (nil: `$NETRC`, then `~/.netrc`).
  case netrc(path: String?)
  /// AWS-style access key, secret and optional session token, each from a variable.
  case awsEnvironment(accessKeyVariable: String, secretKeyVariable: String, sessionTokenVariable: String?)
}

public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable {
  case zip, tar
  case tarGzip = "tar.gz"
}

public struct ArchiveSpec: Sendable, Hashable {
  public var format: ArchiveFormat
  public var stripComponents: Int
  /// Installs each selected file by its base name into the destination (after `stripComponents` and
  /// `include`); two files with one name are an error naming both.
  public var flatten: Bool
  public var include: [Glob]
  public var exclude: [Glob]
  /// Limits against archive bombs.
  public var maxEntries: Int
  public var maxExpandedBytes: Int64

  public init(
    format: ArchiveFormat, stripComponents: Int = 0, flatten: Bool = false, include: [Glob] = [],
    exclude: [Glob] = [], maxEntries: Int = 100_000, maxExpandedBytes: Int64 = 4 << 30
  ) {
    self.format = format
    self.stripComponents = stripComponents
    self.flatten = flatten
    self.include = include
    self.exclude = exclude
    self.maxEntries = maxEntries
    self.maxExpandedBytes = maxExpandedBytes
  }
}

/// A command run on each (matching) file, without a shell: `{input}`, `{output}`, `{stem}` and
/// `{name}` are substituted in each argument.
public struct TransformSpec: Sendable, Hashable {
  /// argv; `argv[0]` is looked up on PATH and checked before any download.
  public var command: [String]
  /// Files the transform applies to (others are installed as they are); empty: all.
  public var files: [Glob]
  /// e.g. `{stem}.mp3`.
  public var outputName: String
  /// A `--version`-style check: argv and a substring its output must contain.
  public var requireVersion: (command: [String], contains: String)?
  /// Each variant runs the command again with its variables and installs into its own destination
  /// (isowords: 64k and 32k audio). Empty: one run into the asset's destination.
  public var variants: [TransformVariant]

  public init(
    command: [String], files: [Glob] = [], outputName: String,
    requireVersion: (command: [String], contains: String)? = nil,
    variants: [TransformVariant] = []
  ) {
    self.command = command
    self.files = files
    self.outputName = outputName
    self.requireVersion = requireVersion
    self.variants = variants
  }

  public static func == (a: TransformSpec, b: TransformSpec) -> Bool {
    a.command == b.command && a.files == b.files && a.outputName == b.outputName && a.variants == b.variants
      && a.requireVersion?.command == b.requireVersion?.command
      && a.requireVersion?.contains == b.requireVersion?.contains
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(command)
    hasher.combine(outputName)
    hasher.combine(variants)
  }
}

public struct TransformVariant: Sendable, Hashable {
  public var name: String
  /// Substituted as `{name}` in the command, e.g. `{bitrate}` → `64k`.
  public var variables: [String: String]
  public var destination: String

  public init(name: String, variables: [String: String], destination: String) {
    self.name = name
    self.variables = variables
    self.destination = destination
  }
}

public struct PlaceholderSpec: Sendable, Hashable {
  /// Relative to the asset's destination, e.g. `empty.mp3`.
  public var path: String
  public var contents: String

  public init(path: String, contents: String = "") {
    self.path = path
    self.contents = contents
  }
}

/// A generated source file such as `Secrets.swift`.
public struct SecretSpec: Sendable, Hashable {
  public var id: String
  /// Repo-relative path of the template; `{{NAME}}` placeholders are replaced with Swift-escaped values.
  public var template: String
  /// Repo-relative output path; must be git-ignored.
  public var output: String
  /// Placeholder name → environment variable holding the value.
  public var values: [String: String]
  /// Repo-relative file copied to `output` in public mode (no values available).
  public var example: String?
  /// Where `template`, `output` and `example` were written in the config (for errors found on disk).
  public var origins: PathOrigins

  public init(
    id: String, template: String, output: String, values: [String: String], example: String? = nil,
    origins: PathOrigins = .init()
  ) {
    self.id = id
    self.template = template
    self.output = output
    self.values = values
    self.example = example
    self.origins = origins
  }
}

extension AssetSpec {
  /// The folders this asset installs into: one per transform variant, else `destination`.
  public var installDestinations: [String] {
    if let variants = transform?.variants, !variants.isEmpty { return variants.map(\.destination) }
    return [destination]
  }
}
