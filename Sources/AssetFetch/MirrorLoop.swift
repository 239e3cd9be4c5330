import Foundation

extension HTTPTransfer {
  /// Tries each target in order, each up to `1 + options.retries` times for transient failures
  /// (backoff with jitter, `Retry-After` honoured), resuming partial bodies with `Range`.
  /// One target failing → its error; several → one error listing each mirror's failure.
  func download(
    _ targets: [HTTPTarget], request: FetchRequest, progress: @Sendable (FetchProgress) -> Void
  ) async throws -> FetchResult {
    var offset = Self.initialOffset(request)
    var failures: [FetchError] = []
    for target in targets {
      var attempt = 0
      var restarted = false
      attempts: while true {
        attempt += 1
        do {
          let bytes = try await downloadOnce(
            target, destination: request.destination, offset: &offset, expectedSize: request.expectedSize,
            progress: progress)
          return FetchResult(bytes: bytes, origin: target.display)
        } catch let failure {
          try Task.checkCancellation()
          let error = failure as AttemptFailure
          switch error.disposition {
          case .fatal:
            throw error.error
          case .nextMirror:
            failures.append(error.error)
            break attempts
          case .restart:
            // Once per mirror, outside the retry budget: the partial file was dropped, fetch it whole.
            guard !restarted else {
              failures.append(error.error)
              break attempts
            }
            restarted = true
            attempt -= 1
          case .retry(let retryAfter):
            guard attempt <= max(options.retries, 0) else {
              failures.append(error.error)
              break attempts
            }
            try await runtime.sleep(runtime.delay(beforeRetry: attempt, retryAfter: retryAfter))
          }
        }
      }
    }
    throw Self.combine(failures, assetID: request.assetID)
  }

  static func combine(_ failures: [FetchError], assetID: String) -> FetchError {
    if failures.count == 1 { return failures[0] }
    let list = failures.enumerated().map { "\n  \($0.offset + 1). \($0.element.message)" }.joined()
    return FetchError(
      .allMirrorsFailed, assetID: assetID,
      "asset '\(assetID)': none of its \(failures.count) mirrors could be used:\(list)",
      failures: failures)
  }

  /// `resumeFrom` when the destination really holds at least that many bytes; else start over.
  static func initialOffset(_ request: FetchRequest) -> Int64 {
    guard request.resumeFrom > 0,
      let size = (try? FileManager.default.attributesOfItem(atPath: request.destination)[.size]) as? NSNumber,
      size.int64Value >= request.resumeFrom
    else { return 0 }
    return request.resumeFrom
  }
}
