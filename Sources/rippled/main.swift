import Daemon

await RippledCommand.main()
