/// What the retry loop does after one failed attempt.
struct AttemptFailure: Error {
  enum Disposition: Equatable {
    /// Transient (connection error, timeout, 5xx, 429): back off and try the same mirror again.
    case retry(after: Duration?)
    /// This mirror cannot serve it (404, denied, HTML page, size mismatch): try the next mirror.
    case nextMirror
    /// Nothing else can work (e.g. the destination is not writable).
    case fatal
    /// The partial download cannot be continued (416, mismatched Content-Range): start over now.
    case restart
  }

  var error: FetchError
  var disposition: Disposition
}
