import RippleCore

enum CLIError: RippleError {
  case cannotWrite(path: String, what: String)
  /// `ripple results keygen --out` names a file that exists: a key is never overwritten.
  case keyFileExists(path: String)
  /// `--out`'s folder does not exist.
  case keyFolderMissing(path: String, folder: String)
  /// `--out`'s folder exists and the key cannot be written there.
  case cannotWriteKey(path: String, reason: String)

  var category: ErrorCategory {
    switch self {
    case .keyFileExists, .keyFolderMissing: .usage
    case .cannotWrite, .cannotWriteKey: .environment
    }
  }

  var description: String {
    switch self {
    case .cannotWrite(let path, let what):
      "cannot write \(what) at \(path): check that the file exists and is writable."
    case .keyFileExists(let path):
      "--out \(path) already exists; a key file is never overwritten. Choose a new path, or remove that file "
        + "first (a key in use there would stop signing)."
    case .keyFolderMissing(let path, let folder):
      "--out \(path): the folder \(folder) does not exist; create it first (readable by the key's user only)."
    case .cannotWriteKey(let path, let reason):
      "--out \(path): cannot write the key there (\(reason)); choose a folder this user can write."
    }
  }
}
