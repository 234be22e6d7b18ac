using System.CommandLine;

namespace ProtocolBench.Lab.CommandLine;

public static class ParseResultExtensions
{
    /// <summary>Whether the user gave <paramref name="option"/> on the command line (not a default, --quick's or a preset's value).</summary>
    public static bool IsGiven(this ParseResult result, Option option) => result.GetResult(option) is { Implicit: false };

    /// <summary>Whether the user gave <paramref name="argument"/> on the command line.</summary>
    public static bool IsGiven(this ParseResult result, Argument argument) => result.GetResult(argument) is { Implicit: false };
}
