import RippleCore
import Testing

/// The one XML escape of the JUnit and Cobertura reports.
@Suite struct XMLTextTests {
  @Test func escapesMarkupAndKeepsLineBreaksAsReferences() {
    #expect(XMLText.escaped(#"a&b <c> "d" 'e'"#) == "a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;")
    #expect(XMLText.escaped("one\ntwo\r\tthree") == "one&#10;two&#13;&#9;three")
  }

  @Test func charactersXMLCannotCarryBecomeTheReplacementCharacter() {
    #expect(XMLText.escaped("bell\u{07}nul\u{00}") == "bell\u{FFFD}nul\u{FFFD}")
    #expect(XMLText.escaped("\u{FFFE}ok é 🙂") == "\u{FFFD}ok é 🙂")
  }
}
