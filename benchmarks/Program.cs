using ProtocolBench.Benchmarks.Cli;

return await BenchmarkCommand.RunAsync(args);
