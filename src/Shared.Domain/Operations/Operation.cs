using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>
/// One operation of the library as every protocol offers it: its name (the gRPC method's and the hub method's), the
/// arguments the size of its answer depends on (by the name every protocol gives them) and the most it can answer
/// (<see cref="ResponseSize"/>), known before it runs. Each service binds its endpoints to these through its own idiom
/// (<see cref="OperationAttribute"/> on a REST action, a gRPC method or a hub method; field metadata in GraphQL), and
/// its response budget reserves what the bound operation says. A service with an endpoint bound to none refuses to start.
/// </summary>
public sealed class Operation
{
    private readonly Func<OperationArguments, PayloadFiles, long> mostAnswered;

    private Operation(string name, string[] arguments, Func<OperationArguments, PayloadFiles, long> mostAnswered, bool isStreamed = false)
    {
        Name = name;
        Arguments = arguments;
        this.mostAnswered = mostAnswered;
        IsStreamed = isStreamed;
    }

    public string Name { get; }

    /// <summary>What the size of its answer depends on, by the name every protocol gives the argument.</summary>
    public IReadOnlyList<string> Arguments { get; }

    /// <summary>
    /// An answer sent as chunks the caller waits on (StreamPdf's 64 KiB chunks): a reader that stops holds one chunk,
    /// so nothing is reserved for it.
    /// </summary>
    public bool IsStreamed { get; }

    /// <summary>The most its answer can carry, in bytes (<see cref="ResponseSize"/>), from the call's arguments alone.</summary>
    public long MostAnswered(OperationArguments arguments, PayloadFiles files) => mostAnswered(arguments, files);

    public override string ToString() => Arguments.Count == 0 ? Name : $"{Name}({string.Join(", ", Arguments)})";

    public static readonly Operation Clone = new(nameof(Clone), ["text", "count"], (a, _) => ResponseSize.CloneHeld(a.Text("text"), a.Int("count")));

    public static readonly Operation GetIntMax = Small(nameof(GetIntMax));

    public static readonly Operation GetInts = new(nameof(GetInts), ["count"], (a, _) => ResponseSize.Ints(a.Int("count")));

    public static readonly Operation GetSample = Small(nameof(GetSample));

    /// <summary>The text file in JSON's base64, the most any protocol sends it.</summary>
    public static readonly Operation GetTextFile = new(nameof(GetTextFile), [], (_, files) => files.IsAvailable ? ResponseSize.File(files.Text.Length) : 0);

    public static readonly Operation GetPdf = new(nameof(GetPdf), [], (_, files) => files.IsAvailable ? ResponseSize.File(files.Pdf.Length) : 0);

    /// <summary>The text file's bytes as they are (REST's /raw).</summary>
    public static readonly Operation GetTextFileRaw = new(nameof(GetTextFileRaw), [], (_, files) => files.IsAvailable ? files.Text.Length : 0);

    public static readonly Operation GetPdfRaw = new(nameof(GetPdfRaw), [], (_, files) => files.IsAvailable ? files.Pdf.Length : 0);

    public static readonly Operation StreamPdf = new(nameof(StreamPdf), [], (_, _) => 0, isStreamed: true);

    public static readonly Operation SearchAuthors = new(nameof(SearchAuthors), ["limit"], (a, _) => ResponseSize.Search(a.Int("limit")));

    public static readonly Operation ListAuthors = new(nameof(ListAuthors), ["take"], (a, _) => ResponseSize.List(a.Int("take")));

    public static readonly Operation GetAuthor = Small(nameof(GetAuthor));

    public static readonly Operation CreateAuthor = Small(nameof(CreateAuthor));

    public static readonly Operation UpdateAuthor = Small(nameof(UpdateAuthor));

    public static readonly Operation DeleteAuthor = Small(nameof(DeleteAuthor));

    public static readonly Operation GetShape = new(nameof(GetShape), ["kind"], (a, _) => ResponseSize.Shapes(a.Text("kind"), 1));

    public static readonly Operation ListShapes = new(nameof(ListShapes), ["kind", "count"], (a, _) => ResponseSize.Shapes(a.Text("kind"), a.Int("count")));

    /// <summary>Every operation: each is bound on at least one service, and a service binds every endpoint to one of these.</summary>
    public static IReadOnlyList<Operation> All { get; } =
    [
        Clone, GetIntMax, GetInts, GetSample, GetTextFile, GetPdf, GetTextFileRaw, GetPdfRaw, StreamPdf,
        SearchAuthors, ListAuthors, GetAuthor, CreateAuthor, UpdateAuthor, DeleteAuthor, GetShape, ListShapes,
    ];

    public static Operation? Find(string name) => All.FirstOrDefault(o => o.Name == name);

    /// <summary>
    /// An answer of a few hundred bytes at most (a number, one author and its books, an acknowledgement): nothing is
    /// reserved, a list of authors is charged its real size once built.
    /// </summary>
    private static Operation Small(string name) => new(name, [], (_, _) => 0);
}
