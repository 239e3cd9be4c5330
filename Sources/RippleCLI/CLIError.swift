import RippleCore

enum CLIError: RippleError {
  case cannotWrite(path: String, what: String)

  var category: ErrorCategory { .environment }

  var description: String {
    switch self {
    case .cannotWrite(let path, let what):
      "cannot write \(what) at \(path): check that the file exists and is writable."
    }
  }
}
