using System.CommandLine;
using System.CommandLine.Help;
using ProtocolBench.Lab.Runs;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>How both commands parse their arguments: the root command, help, and a parse error in one line (exit 2).</summary>
public sealed partial class CommonOptions
{
    /// <summary>
    /// Parses <paramref name="args"/>: null when the command should go on; otherwise the exit code (0 after --help,
    /// 2 after a parse error, both already printed).
    /// </summary>
    public static int? Parse(RootCommand root, IReadOnlyList<string> args, out ParseResult result, Action? afterHelp = null)
    {
        result = root.Parse(args);
        if (result.Action is HelpAction)
        {
            result.Invoke();
            afterHelp?.Invoke();
            return ExitCodes.Ok;
        }

        if (result.Errors.Count > 0)
        {
            Console.Error.WriteLine($"{OneLine(result.Errors.Select(e => e.Message))} See --help.");
            return ExitCodes.BadUsage;
        }

        return null;
    }

    /// <summary>
    /// The one error to show: the first that names an option, if any (a mistyped option's value is an unmatched token as
    /// well, and saying so too would only hide the typo).
    /// </summary>
    public static string OneLine(IEnumerable<string> errors)
    {
        const string unmatched = "Unrecognized command or argument '-";
        var first = errors.OrderBy(m => m.Contains("'-", StringComparison.Ordinal) ? 0 : 1).First();
        return first.StartsWith(unmatched, StringComparison.Ordinal) ? "Unknown option '" + first[(unmatched.Length - 1)..] : first;
    }

    /// <summary>A root command without System.CommandLine's --version (BenchmarkDotNet has its own).</summary>
    public static RootCommand Root(string description)
    {
        var root = new RootCommand(description);
        // The commands run after parsing; an action here only tells System.CommandLine that no subcommand is needed.
        root.SetAction(_ => ExitCodes.Ok);
        foreach (var version in root.Options.OfType<VersionOption>().ToList())
        {
            root.Options.Remove(version);
        }

        return root;
    }
}
