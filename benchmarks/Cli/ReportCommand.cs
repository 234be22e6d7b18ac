namespace ProtocolBench.Benchmarks.Cli;

/// <summary>report RESULTS: a finished run's summary written again from its summary.json, by the rules of this build.</summary>
public static class ReportCommand
{
    /// <summary>The names of BenchmarkDotNet's own reports, one set per class and round.</summary>
    public static readonly string[] ReportSuffixes = ["-report.html", "-report-github.md", "-report.csv", "-report-full.json"];

    public static int Run(string folder)
    {
        RunFile run;
        try
        {
            run = RunFile.Load(folder);
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            Console.Error.WriteLine(e.Message);
            return ExitCodes.BadUsage;
        }

        var directory = Directory.Exists(folder) ? folder : Path.GetDirectoryName(Path.GetFullPath(folder))!;
        var reportFiles = ReportSuffixes
            .SelectMany(suffix => Directory.EnumerateFiles(directory, "*" + suffix, SearchOption.AllDirectories))
            .Select(file => Path.GetRelativePath(directory, file).Replace('\\', '/'))
            .ToList();
        Console.WriteLine(new SummaryWriter(run.Results, run.Run).Write(directory, reportFiles));
        Console.WriteLine($"Rewrote {Path.Combine(directory, SummaryWriter.HtmlFile)} and {SummaryWriter.MarkdownFile} from {RunFile.FileName}.");
        return ExitCodes.Ok;
    }
}
