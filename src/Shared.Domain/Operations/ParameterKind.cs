namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>What an operation's argument holds: every argument of the library is a text or an integer.</summary>
public enum ParameterKind
{
    Text,
    Int,
}
