namespace ProtocolBench.Lab.Statistics;

/// <summary>
/// One side of a comparison as a run measured it, in parts: its time per operation, the bytes it moves per operation
/// on a warm connection, and what opening a connection costs it (the floor on a new connection − on a warm one, in
/// time and in bytes). Times in nanoseconds.
/// </summary>
public sealed record Side(string Name, double Time, double Bytes, double? SetUp, double SetUpBytes);
