import RippleCLI

await RippleCommand.main()
