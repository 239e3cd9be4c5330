import AssetFetch
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ResultStore
import RippleCore

/// A shared store's answer: its status and body (a success's body whole, an error's first 64 KiB).
struct StoreResponse: Sendable {
  var status: Int
  var body: Data
  /// The `ETag` header, for a conditional write (S3's `If-Match`).
  var etag: String? = nil

  var isSuccess: Bool { (200..<300).contains(status) }
}

/// The HTTP side of the shared stores: one request at a time, its body read up to a limit while it streams,
/// every failure a `ResultStoreError` whose text holds no credential.
struct StoreHTTP: Sendable {
  /// The store's `name`, for errors.
  var store: String
  /// Seconds one store call (a load or a save, all its requests) may take.
  var timeout: Double
  /// Credential values scrubbed from the texts of library errors.
  var secrets: [String]

  /// One client for every store of the process, never shut down (like `HTTPClient.shared`), but with no
  /// redirects (a credential must not follow one), no decompression, and no retried connection attempts: a
  /// refused connection is `unreachable` at once, not a wait until the timeout.
  static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow, timeout: .init(connect: .seconds(30), read: .seconds(60)),
      decompression: .disabled)
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
  }()

  /// What an error body may add to a message.
  static let errorBodyLimit = 64 << 10

  /// Sends one request. A success's body longer than `limit` is `tooLarge`, found while it streams (the
  /// `Content-Length` is checked first); an error's body is cut at `errorBodyLimit`.
  func send(
    _ method: HTTPMethod, _ url: String, headers: [(String, String)], body: Data? = nil,
    limit: Int = ResultStoreLimits.maximumRecordBytes
  ) async throws(ResultStoreError) -> StoreResponse {
    var request = HTTPClientRequest(url: url)
    request.method = method
    request.headers.add(name: "User-Agent", value: "ripple")
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }

    let response: HTTPClientResponse
    do {
      response = try await Self.client.execute(request, deadline: .now() + .nanoseconds(Int64(timeout * 1e9)))
    } catch {
      throw transportError(error, method: method)
    }
    let status = Int(response.status.code)
    let isSuccess = (200..<300).contains(status)
    if isSuccess, let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
      throw tooLarge(method, bytes: "\(length) bytes")
    }
    let cap = isSuccess ? limit : Self.errorBodyLimit
    var data = Data()
    do {
      for try await chunk in response.body {
        if data.count + chunk.readableBytes > cap {
          if isSuccess { throw tooLarge(method, bytes: "more than \(limit) bytes") }
          data.append(contentsOf: chunk.readableBytesView.prefix(cap - data.count))
          break
        }
        data.append(contentsOf: chunk.readableBytesView)
      }
    } catch let error as ResultStoreError {
      throw error
    } catch {
      throw transportError(error, method: method)
    }
    return StoreResponse(status: status, body: data, etag: response.headers.first(name: "ETag"))
  }

  /// A status the store's protocol does not expect, as `refused`.
  func refused(_ response: StoreResponse, _ what: String, hint: String? = nil) -> ResultStoreError {
    var detail = "\(what) was refused with HTTP \(response.status)"
    if let hint { detail += " (\(hint))" }
    return ResultStoreError(.refused(status: response.status), store: store, detail: detail)
  }

  func invalid(_ detail: String) -> ResultStoreError {
    ResultStoreError(.invalidResponse, store: store, detail: detail)
  }

  private func tooLarge(_ method: HTTPMethod, bytes: String) -> ResultStoreError {
    ResultStoreError(
      .tooLarge, store: store,
      detail: "the answer to a \(method.rawValue) holds \(bytes), more than a record may "
        + "(\(ResultStoreLimits.maximumRecordBytes)); it was not read")
  }

  /// A failure before or while the answer came: a timeout, a connection that could not be made or was lost.
  func transportError(_ error: any Error, method: HTTPMethod) -> ResultStoreError {
    if let error = error as? ResultStoreError { return error }
    if let error = error as? HTTPClientError,
      [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
    {
      return timedOut()
    }
    switch ConnectFailure(error) {
    case .refused:
      return ResultStoreError(.unreachable, store: store, detail: "the connection was refused (nothing listens there)")
    case .unknownHost:
      return ResultStoreError(.unreachable, store: store, detail: "the host name does not resolve")
    case nil:
      let text = Redaction.text(String(describing: error), secrets: secrets)
      return ResultStoreError(.unreachable, store: store, detail: "a \(method.rawValue) failed: \(text)")
    }
  }

  func timedOut() -> ResultStoreError {
    ResultStoreError(.timedOut, store: store, detail: "no answer within \(Self.seconds(timeout))")
  }

  /// Runs one store call within `timeout`: past it the call is cancelled and `timedOut` thrown.
  func withinTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws(ResultStoreError)
    -> T
  {
    let timeout = timeout
    do {
      return try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
          try await Task.sleep(for: .nanoseconds(Int64(timeout * 1e9)))
          throw timedOut()
        }
        defer { group.cancelAll() }
        return try await group.next()!
      }
    } catch let error as ResultStoreError {
      throw error
    } catch is CancellationError {
      throw timedOut()
    } catch {
      throw ResultStoreError(.io, store: store, detail: Redaction.text(String(describing: error), secrets: secrets))
    }
  }

  private static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
