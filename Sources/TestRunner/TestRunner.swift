import RippleCore
