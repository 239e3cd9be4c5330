import Affected
import Git
import PackageGraph
import RippleConfig
import RippleCore
