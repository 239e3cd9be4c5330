import RippleCore
import Testing

@Suite struct TerminalTextTests {
  @Test func controlFormatAndBidiCharactersBecomeEscapes() {
    #expect(TerminalText.quoted("plain text/with-dots.1") == "plain text/with-dots.1")
    #expect(TerminalText.quoted("a\nb\rc\td") == "a\\u{A}b\\u{D}c\\u{9}d")
    #expect(TerminalText.quoted("\u{1B}[2J\u{1B}[H") == "\\u{1B}[2J\\u{1B}[H", "ANSI: ESC is what makes a sequence")
    #expect(TerminalText.quoted("\u{9B}31m") == "\\u{9B}31m", "C1's CSI")
    #expect(TerminalText.quoted("abc\u{202E}fed") == "abc\\u{202E}fed")
    #expect(
      TerminalText.quoted("\u{2066}x\u{2069}\u{200F}\u{2028}\u{7F}\u{0}")
        == "\\u{2066}x\\u{2069}\\u{200F}\\u{2028}\\u{7F}\\u{0}")
    #expect(TerminalText.quoted("naïve Ü 漢字") == "naïve Ü 漢字", "printable text stays")
  }

  @Test func noWorkflowCommandSurvives() {
    let hostile = "Pkg\n::error title=x::owned\n::set-output name=a::b"
    let quoted = TerminalText.quoted(hostile)
    #expect(!quoted.contains("\n") && !quoted.contains("::"), "\(quoted)")
    #expect(TerminalText.quoted("::error::x") == ":\\:error:\\:x")
    #expect(!TerminalText.quoted(":::").contains("::"))
    #expect(TerminalText.quoted("a: b") == "a: b")
  }

  @Test func aFutureTimeSaysClockSkew() {
    #expect(AgeText.ago(-240) == "in the future (clock skew)")
    #expect(AgeText.ago(-0.5) == "0s ago", "within a second is now")
    #expect(AgeText.ago(7200) == "2h ago")
  }
}
