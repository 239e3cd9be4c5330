import Clibgit2
import RippleCore

// Placeholder until the Git module lands (issue 2).
enum GitPlaceholder {}
