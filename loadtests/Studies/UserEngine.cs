namespace ProtocolBench.LoadTests.Studies;

/// <summary>--engine: who drives the virtual-user study's users.</summary>
public enum UserEngine
{
    /// <summary>This process: a task per user over this project's clients.</summary>
    Dotnet,

    /// <summary>Locust's master and workers (tools/stacks/locust/), a gevent user per virtual user.</summary>
    Locust,
}
