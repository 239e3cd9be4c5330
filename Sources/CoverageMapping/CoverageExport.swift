import RippleCore
import SystemClients
import TestImpact
