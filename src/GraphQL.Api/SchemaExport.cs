namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// <c>dotnet run --project src/GraphQL.Api -- --export-schema src/GraphQL.Api/schema.graphql</c> writes the SDL and exits:
/// no web host, no listening, no database connection. A relative path is taken from the repository root (dotnet run
/// starts the program in the project folder). The committed schema.graphql is compared with the live schema by the tests.
/// </summary>
public static class SchemaExport
{
    public const string Option = "--export-schema";

    public const string DefaultPath = "src/GraphQL.Api/schema.graphql";

    public static string? Requested(string[] args)
    {
        var index = Array.IndexOf(args, Option);
        return index < 0 ? null : index + 1 < args.Length ? args[index + 1] : DefaultPath;
    }

    /// <summary>The SDL of the schema this build serves, as schema.graphql holds it (LF line ends, one final newline).</summary>
    public static string CurrentSdl()
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.AddLibraryDb();
        builder.AddPayloadFiles();
        builder.AddGraphQLApi();
        using var host = builder.Build();
        return host.Services.GetRequiredService<ISchema>().Print().ReplaceLineEndings("\n").TrimEnd() + "\n";
    }

    public static async Task<int> WriteAsync(string path)
    {
        var sdl = CurrentSdl();
        var fullPath = Path.GetFullPath(path, ProjectPaths.RootOrCurrent);
        await File.WriteAllTextAsync(fullPath, sdl);
        Console.WriteLine($"Wrote the GraphQL schema ({sdl.Length} characters) to {fullPath}");
        return 0;
    }
}
