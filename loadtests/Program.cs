// dotnet run -c Release --project loadtests -- [users|paced|all|driver-check] [options]   (--help lists them)
return await ProtocolBench.LoadTests.Cli.LoadTestRun.MainAsync(args);
