import Foundation

/// The one JSON dialect of the daemon's API: ISO 8601 UTC dates with fractional seconds
/// (`2026-04-19T12:03:04.120Z`), sorted keys, slashes not escaped.
public enum APIJSON {
  public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    [UInt8](try encoder().encode(value))
  }

  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(timestamp(date))
    }
    return encoder
  }

  /// Reads what `encode` writes (and ISO 8601 dates without fractional seconds).
  public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
    try decoder().decode(type, from: Data(bytes))
  }

  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      if let date = try? Date(text, strategy: fractional) { return date }
      if let date = try? Date(text, strategy: whole) { return date }
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected an ISO 8601 date, found \(text)")
    }
    return decoder
  }

  /// `2026-04-19T12:03:04.120Z`.
  public static func timestamp(_ date: Date) -> String { date.formatted(fractional) }

  private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
  private static let whole = Date.ISO8601FormatStyle(timeZone: .gmt)
}
