namespace ProtocolBench.Lab.Costs;

/// <summary>An instant marked in a service's account by <see cref="ServiceMeter.Pause"/>: read it with <see cref="ServiceMeter.Read"/>.</summary>
/// <param name="At">When the pause began (UTC): the requests before it were answered, the next one not yet sent.</param>
/// <param name="KernelSeconds">The kernel's CPU time of the service at <paramref name="Resumed"/>, just after the collection.</param>
/// <param name="Resumed">When the pause ended: the runtime's collection must have been taken by then.</param>
public sealed record MeterMark(DateTime At, double? KernelSeconds, DateTime Resumed);
