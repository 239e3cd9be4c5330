import Foundation
import HTTPTypes
import Hummingbird

/// `POST /hooks/github`: a push or branch creation on a followed remote fetches it at once.
struct WebhookRoutes {
  var api: APIContext

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.post("github") { request, context in try await Self.webhook(request, api, client: context.client) }
    return routes
  }

  /// GitHub deliveries: signature first (401 before the body is parsed), then dedup, then 202 and a fetch.
  static func webhook(_ request: Request, _ api: APIContext, client: String) async throws -> Response {
    guard let secret = api.webhookSecret else {
      throw HTTPError(.notFound, message: "webhooks are not configured (http.webhookSecretFile)")
    }
    let body = try await request.body.collect(upTo: HTTPAPI.maxBody)
    let bytes = [UInt8](buffer: body)
    let signature = request.headers[HTTPField.Name("X-Hub-Signature-256")!]
    guard WebhookVerifier.verify(signatureHeader: signature, body: bytes, secret: secret) else {
      api.metrics.webhookDelivery(result: "rejected")
      // Only wrong signatures are throttled: GitHub's right ones are served whatever others at its address sent.
      try api.refuseIfLockedOut(client)
      api.recordFailure(client, warning: "rejected a webhook delivery: missing or wrong X-Hub-Signature-256")
      throw HTTPError(.unauthorized, message: "bad signature")
    }
    let delivery = request.headers[HTTPField.Name("X-GitHub-Delivery")!] ?? ""
    if !delivery.isEmpty, try !api.read({ try api.store.recordDelivery(delivery) }) {
      api.metrics.webhookDelivery(result: "duplicate")
      return try HTTPAPI.json(["duplicate": delivery] as [String: String], status: .ok)
    }
    let event = request.headers[HTTPField.Name("X-GitHub-Event")!] ?? "push"
    let payload = try? JSONDecoder().decode(WebhookPayload.self, from: Data(bytes))
    let targets = api.branchSources.filter { $0.matchesRemote(payload?.urls ?? []) }
    api.metrics.webhookDelivery(result: "accepted")
    if event == "push" || event == "create" {
      for source in targets { source.requestFetch() }
    }
    // Debug: a busy repository delivers many; the fetch it causes is logged at info already.
    api.log.debug(
      "webhook \(event) delivery \(delivery): fetching \(targets.map(\.settings.name).joined(separator: ", "))")
    return try HTTPAPI.json(
      ["accepted": delivery, "fetching": targets.map(\.settings.name).joined(separator: ",")],
      status: .accepted)
  }
}
