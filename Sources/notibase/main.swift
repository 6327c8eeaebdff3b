import NotibaseCLI

await NotibaseCLI.main(CommandLine.arguments)
