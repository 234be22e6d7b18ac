using ProtocolBench.Lab;

namespace ProtocolBench.LoadTests.Reports;

/// <summary>The machine and where the driver and the services ran on it.</summary>
public sealed record Machine(MachineInfo Host, string DriverCpus, string ServerCpus)
{
    public string Summary => $"{Host.Describe()}, {Host.OperatingSystem}, {Host.Runtime}; driver on {DriverCpus}, services on {ServerCpus}";
}
