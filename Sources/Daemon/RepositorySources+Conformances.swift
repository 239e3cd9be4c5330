import DaemonHTTP
import DaemonSources

// The sources as the HTTP routes see them: the routes know the protocols, not the git behind them.
extension BranchSource: RemoteSource {}
extension WorktreeSource: WorkingTreeSource {}
