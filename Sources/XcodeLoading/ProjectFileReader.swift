import Foundation
import XcodeModel

/// Reads `project.pbxproj`, an old-style (OpenStep) property list, with Foundation's property-list reader:
/// no dependency beyond Foundation, and a large project reads in milliseconds on Linux too.
public enum ProjectFileReader {
  public static func document(_ bytes: [UInt8], projectPath: String, revision: String) throws(XcodeError) -> PBXDocument
  {
    let file = projectPath + "/project.pbxproj"
    let object: Any
    do {
      object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
    } catch {
      throw .malformedProject(path: file, revision: revision, reason: reason(error))
    }
    guard let value = plistValue(object), value.dictionary != nil else {
      throw .malformedProject(path: file, revision: revision, reason: "it is not a property-list dictionary")
    }
    return try PBXDocument(projectPath: projectPath, revision: revision, plist: value)
  }

  /// Foundation's values as `PlistValue`; numbers and dates (not in a pbxproj) become strings.
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
      return .dictionary(fields)
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
