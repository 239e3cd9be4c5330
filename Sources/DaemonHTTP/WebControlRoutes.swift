import DaemonWeb
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The browser's side of state changes (docs/DESIGN.md, "Web login"): `GET /login` (the form), `POST /login`
/// (the token in, a session cookie out), `POST /logout`, and the run page's buttons `POST /runs/{id}/rerun|cancel`,
/// which redirect back to a run page or answer with a page naming what went wrong. The live log's script is
/// served from here too (`/static/live-log.js`), so the pages' CSP stays `script-src 'self'`.
struct WebControlRoutes {
  var api: APIContext

  struct LoginForm: Decodable {
    var token: String?
    var next: String?
  }

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.get("/login") { request, _ in
      let next = Self.safeNext(request.uri.queryParameters["next"].map(String.init))
      let loggedIn = WebAuth.isLoggedIn(request, sessions: api.sessions)
      return HTTPAPI.html(
        Dashboard.login(next: next, message: nil, loggedIn: loggedIn, tokenConfigured: api.token != nil))
    }
    routes.post("/login") { request, context in
      let form = try await Self.form(request)
      let next = Self.safeNext(form.next)
      guard let token = api.token else {
        return HTTPAPI.html(
          Dashboard.login(
            next: next, message: WebAuth.Outcome.noToken.message, loggedIn: false, tokenConfigured: false),
          status: .forbidden)
      }
      // A login from another site's form would plant that site's session (login CSRF).
      guard WebAuth.isSameOrigin(request, publicURL: api.publicURL) else {
        return Self.refusal(.crossOrigin)
      }
      // The right token is never throttled: only wrong ones are refused while the client is locked out.
      guard let given = form.token, WebAuth.constantTimeEqual(Array(given.utf8), token) else {
        if let seconds = api.failures.retryAfter(context.client) {
          var response = HTTPAPI.html(
            Dashboard.login(
              next: next, message: "Too many wrong tokens; try again in \(seconds) s.", loggedIn: false,
              tokenConfigured: true),
            status: .tooManyRequests)
          response.headers[.retryAfter] = "\(seconds)"
          return response
        }
        api.recordFailure(context.client, warning: "a login with a wrong token was refused")
        return HTTPAPI.html(
          Dashboard.login(next: next, message: "That token is not right.", loggedIn: false, tokenConfigured: true),
          status: .unauthorized)
      }
      var response = Self.redirect(to: next)
      response.headers[.setCookie] = api.sessions.setCookie(api.sessions.create())
      return response
    }
    routes.post("/logout") { request, _ in
      guard WebAuth.isSameOrigin(request, publicURL: api.publicURL) else { return Self.refusal(.crossOrigin) }
      if let id = WebSessions.id(fromCookieHeader: request.headers[.cookie]) { api.sessions.end(id) }
      var response = Self.redirect(to: "/")
      response.headers[.setCookie] = api.sessions.clearCookie
      return response
    }
    routes.post("/runs/:id/rerun") { request, context in
      let id = try context.parameters.require("id", as: Int64.self)
      let fresh = request.uri.queryParameters["fresh"].map { $0 == "1" || $0 == "true" }
      return await Self.change(request, api: api, run: id) {
        "/runs/\(try await RunsAPIRoutes.submitRerun(id, fresh: fresh, api).id)"
      }
    }
    routes.post("/runs/:id/cancel") { request, context in
      let id = try context.parameters.require("id", as: Int64.self)
      return await Self.change(request, api: api, run: id) {
        _ = try await RunsAPIRoutes.cancel(id, api)
        return "/runs/\(id)"
      }
    }
    routes.get("/static/live-log.js") { _, _ in
      HTTPAPI.response(.ok, contentType: "text/javascript; charset=utf-8", bytes: Array(LiveLogScript.source.utf8))
    }
    return routes
  }

  /// Checks the credentials, runs `body` (which answers where to go), and turns an HTTP error into a page.
  static func change(
    _ request: Request, api: APIContext, run id: Int64, _ body: () async throws -> String
  ) async -> Response {
    let outcome = WebAuth.check(request, token: api.token, sessions: api.sessions, publicURL: api.publicURL)
    guard outcome == .allowed else { return refusal(outcome, run: id) }
    do {
      return redirect(to: try await body())
    } catch let error as HTTPError {
      let title = error.status == .conflict ? "Not possible now" : "Refused"
      return HTTPAPI.html(
        Dashboard.error(title: title, message: error.body ?? "\(error.status)", back: "/runs/\(id)"),
        status: error.status)
    } catch {
      api.log.error("POST /runs/\(id): \(error)")
      return HTTPAPI.html(
        Dashboard.error(title: "Failed", message: "\(error)", back: "/runs/\(id)"), status: .internalServerError)
    }
  }

  static func refusal(_ outcome: WebAuth.Outcome, run id: Int64? = nil) -> Response {
    let back = id.map { "/runs/\($0)" } ?? "/"
    switch outcome {
    case .unauthorized:
      return HTTPAPI.html(
        Dashboard.error(title: "Log in first", message: "Changing runs needs a login.", back: back, login: true),
        status: .unauthorized)
    case .noToken, .crossOrigin, .allowed:
      return HTTPAPI.html(Dashboard.error(title: "Refused", message: outcome.message, back: back), status: .forbidden)
    }
  }

  /// 303: the browser follows with a GET.
  static func redirect(to path: String) -> Response {
    var response = HTTPAPI.html("", status: .seeOther)
    response.headers[.location] = path
    return response
  }

  /// A redirect target on this site only: an absolute path with no control character (a browser drops a tab or
  /// a line break, so `/\t/evil.example` would become `//evil.example`), no backslash (read as a slash) and not
  /// `//` (another host); anything else is the dashboard.
  static func safeNext(_ next: String?) -> String {
    guard let next, next.hasPrefix("/"), !next.hasPrefix("//"),
      !next.unicodeScalars.contains(where: { $0 == "\\" || unsafeCategories.contains($0.properties.generalCategory) })
    else { return "/" }
    return next
  }

  /// Characters a browser may drop or fold from a URL: controls, invisible formatting, line and paragraph breaks.
  static let unsafeCategories: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]

  static func form(_ request: Request) async throws -> LoginForm {
    let body = try await request.body.collect(upTo: 64 << 10)
    do {
      return try URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: body))
    } catch {
      throw HTTPError(.badRequest, message: "the form could not be read: \(error)")
    }
  }
}
