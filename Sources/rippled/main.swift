import RippledCLI

await RippledCommand.start()
