import Daemon

await RippledCommand.start()
