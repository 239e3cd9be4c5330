import RippleCLI

await RippleCommand.run()
