import Foundation
import XcodeModel

/// Reads `project.pbxproj`, an old-style (OpenStep) property list, with Ripple's own reader over bytes
/// (`OpenStepPlist`, many times faster than Foundation's on a large project). Foundation's
/// `PropertyListSerialization` stays as the reference the reader is tested against (`foundationValue`).
public enum ProjectFileReader {
  public static func document(_ bytes: [UInt8], projectPath: String, revision: String) throws(XcodeError) -> PBXDocument
  {
    let file = projectPath + "/project.pbxproj"
    let value: PlistValue
    if useFoundation {
      // `make bench` measures the reference reader in the same binary (RIPPLE_XCODE_READER=foundation).
      switch foundationValue(bytes) {
      case .success(let read): value = read
      case .failure(let error): throw .malformedProject(path: file, revision: revision, reason: error.reason)
      }
    } else {
      do throws(OpenStepPlist.SyntaxError) {
        value = try OpenStepPlist.parse(bytes)
      } catch {
        throw .malformedProject(path: file, revision: revision, reason: error.description)
      }
    }
    guard value.dictionary != nil else {
      throw .malformedProject(path: file, revision: revision, reason: "line 1: the top-level value is not a dictionary")
    }
    return try PBXDocument(projectPath: projectPath, revision: revision, plist: value)
  }

  /// `RIPPLE_XCODE_READER=foundation`: read with Foundation instead (for `make bench`'s comparison).
  static let useFoundation = ProcessInfo.processInfo.environment["RIPPLE_XCODE_READER"] == "foundation"

  /// The same bytes read by Foundation's property-list reader, as a `PlistValue`: the reference the
  /// differential test and `make bench` compare `OpenStepPlist` with. The error is Foundation's words.
  public static func foundationValue(_ bytes: [UInt8]) -> Result<PlistValue, FoundationReadError> {
    let object: Any
    do {
      object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
    } catch {
      return .failure(FoundationReadError(reason: reason(error)))
    }
    guard let value = plistValue(object) else { return .failure(FoundationReadError(reason: "not a value")) }
    return .success(value)
  }

  public struct FoundationReadError: Error, Sendable {
    public var reason: String
  }

  /// Foundation's values as `PlistValue`; numbers and dates (not in a pbxproj) become strings, data Base64.
  static func plistValue(_ object: Any) -> PlistValue? {
    switch object {
    case let string as String: return .string(string)
    case let array as [Any]: return .array(array.compactMap(plistValue))
    case let dictionary as [AnyHashable: Any]:
      var fields: [String: PlistValue] = [:]
      for (key, value) in dictionary {
        guard let key = key as? String, let value = plistValue(value) else { continue }
        fields[key] = value
      }
      return .dictionary(PlistDictionary(fields))
    case let data as Data: return .string(data.base64EncodedString())
    default: return .string("\(object)")
    }
  }

  /// The parser's own words ("Missing ';' on line 10") when it gives them.
  private static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    for value in nsError.userInfo.values {
      if let inner = value as? NSError, let text = inner.userInfo[NSDebugDescriptionErrorKey] as? String { return text }
    }
    if let text = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return text }
    return "not an old-style property list"
  }
}
