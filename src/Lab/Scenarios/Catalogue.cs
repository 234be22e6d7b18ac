using ProtocolBench.Lab.Statistics;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// Every scenario of ProtocolBench, in report order: Bolanowski et al.'s payloads I–VII with their arguments and
/// figures, the files in binary form, and Śliwa &amp; Pańczyk's author operations with their claims (the claims about a
/// whole study are in <see cref="Papers"/>). Both commands and every report read this list; a scenario added here is
/// measured, checked and reported everywhere.
/// </summary>
public static class Catalogue
{
    public const string CreatedCountry = "Poland";

    /// <summary>Author 6000 has (6000 % 3) + 1 = 1 book.</summary>
    public const int OneId = 6000;

    private static readonly string Lorem1000 = PayloadOperations.Clone(PayloadOperations.LoremIpsum, 1000);

    // The calls the scenarios send, made once (the benchmark sends each thousands of times).
    private static readonly OperationCall<string> CloneLorem = Operation.Clone.With(PayloadOperations.LoremIpsum, 1000);
    private static readonly OperationCall<int[]> Ints10000 = Operation.GetInts.With(10_000);
    private static readonly OperationCall<FilePayload> TextFile = Operation.GetTextFile.With();
    private static readonly OperationCall<FilePayload> Pdf = Operation.GetPdf.With();
    private static readonly OperationCall<byte[]> TextFileRaw = Operation.GetTextFileRaw.With();
    private static readonly OperationCall<byte[]> PdfRaw = Operation.GetPdfRaw.With();
    private static readonly OperationCall<byte[]> StreamedPdf = Operation.StreamPdf.With();
    private static readonly OperationCall<AuthorDto> GetOne = Operation.GetAuthor.With(OneId);
    private static readonly OperationCall<IReadOnlyList<AuthorDto>> List100 = Operation.ListAuthors.With(0, 100);

    private static readonly Lazy<PayloadFiles> LazyFiles = new(() =>
    {
        var files = PayloadFiles.Load();
        return files.IsAvailable ? files : throw new InvalidOperationException(files.Error);
    });

    /// <summary>The transport floor on a warm connection: the round trip alone.</summary>
    public static readonly Scenario Floor = new(0, "floor", "Floor: GET /baseline (fixed 23 B)", ScenarioGroup.Floor) { Check = CheckBaseline };

    /// <summary>The same request on a new connection every time, whatever --connections says: the floor ÷ this is what opening a connection costs.</summary>
    public static readonly Scenario FloorNewConnection = new(1, "floor-new-connection", "Floor on a new connection (TCP connect, TLS handshake on HTTPS, GET /baseline)", ScenarioGroup.Floor)
    {
        Check = CheckBaseline,
    };

    public static readonly IReadOnlyList<Scenario> All =
    [
        Floor,
        FloorNewConnection,
        new(2, "clone-hello", "I clone \"Hello World!\" ×1", ScenarioGroup.Payloads)
        {
            Request = Send(Operation.Clone.With("Hello World!", 1)),
            Check = (r, _) => Checks.Equal((string)r, "Hello World!", "clone(\"Hello World!\", 1)"),
            Bolanowski = "I",
            Paper = new(4, 8, 22, 21, "REST", Verdict.Both),
        },
        new(3, "clone-lorem", "II clone 615 chars ×1000", ScenarioGroup.Payloads)
        {
            Request = Send(CloneLorem),
            Check = (r, _) => Checks.Text((string)r, Lorem1000, "clone(lorem, 1000)"),
            Verify = async (c, ct) => Checks.Equal(await c.CallAsync(CloneLorem, ct), Lorem1000, "clone(lorem, 1000)"),
            Bolanowski = "II",
            Paper = new(57, 68, 76, 82, "REST", Verdict.Both),
        },
        new(4, "int-max", "III Int32 max", ScenarioGroup.Payloads)
        {
            Request = Send(Operation.GetIntMax.With()),
            Check = (r, _) => Checks.Equal((int)r, int.MaxValue, "int max"),
            Bolanowski = "III",
            Paper = new(3, 7, 22, 21, "REST", "REST"),
        },
        new(5, "ints", "IV 10,000 ints", ScenarioGroup.Payloads)
        {
            Request = Send(Ints10000),
            Check = (r, _) => Checks.Ints((int[])r, 10_000, "ints(10000)"),
            Verify = async (c, ct) =>
            {
                if (!(await c.CallAsync(Ints10000, ct)).SequenceEqual(Enumerable.Range(0, 10_000)))
                {
                    throw Checks.Wrong("ints(10000)", "values are not 0..9999 in order");
                }
            },
            Bolanowski = "IV",
            Paper = new(8, 12, 27, 25, "REST", Verdict.Both),
        },
        new(6, "sample", "V small object", ScenarioGroup.Payloads)
        {
            Request = Send(Operation.GetSample.With()),
            Check = (r, _) => Checks.Equal((AuthorDto)r, PayloadOperations.Sample, "sample"),
            Bolanowski = "V",
            Paper = new(3, 8, 22, 21, "REST", Verdict.Both),
        },
        new(7, "text-file", "VI 455 KB text file (JSON base64 / bytes field)", ScenarioGroup.Files)
        {
            Request = async (c, _, ct) => (await c.CallAsync(TextFile, ct)).Data,
            Check = (r, _) => Checks.Bytes((byte[])r, Files.Text, "text file"),
            Verify = async (c, ct) => Checks.Sha256((await c.CallAsync(TextFile, ct)).Data, Files.TextSha256, "text file"),
            Bolanowski = "VI",
            Paper = new(57, 53, 75, 66, Verdict.Both, "gRPC"),
        },
        new(8, "pdf", "VII 3.4 MB PDF (JSON base64 / bytes field)", ScenarioGroup.Files)
        {
            Request = async (c, _, ct) => (await c.CallAsync(Pdf, ct)).Data,
            Check = (r, _) => Checks.Bytes((byte[])r, Files.Pdf, "PDF"),
            Verify = async (c, ct) => Checks.Sha256((await c.CallAsync(Pdf, ct)).Data, Files.PdfSha256, "PDF"),
            Bolanowski = "VII",
            Paper = new(416, 361, 473, 370, "gRPC", "gRPC"),
        },
        // gRPC's bytes field already is the binary form, so its text-file cell is the same call as text-file.
        new(9, "text-file-raw", "VI text file, binary (REST raw / gRPC bytes)", ScenarioGroup.BinaryFiles)
        {
            Request = async (c, _, ct) => await BinaryTextFileAsync(c, ct),
            Check = (r, _) => Checks.Bytes((byte[])r, Files.Text, "text file (binary)"),
            Verify = async (c, ct) => Checks.Sha256(await BinaryTextFileAsync(c, ct), Files.TextSha256, "text file (binary)"),
            Protocols = [Protocol.Rest, Protocol.Grpc],
        },
        new(10, "pdf-raw", "VII PDF, binary (REST raw / gRPC and SignalR StreamPdf)", ScenarioGroup.BinaryFiles)
        {
            Request = async (c, _, ct) => await BinaryPdfAsync(c, ct),
            Check = (r, _) => Checks.Bytes((byte[])r, Files.Pdf, "PDF (binary)"),
            Verify = async (c, ct) => Checks.Sha256(await BinaryPdfAsync(c, ct), Files.PdfSha256, "PDF (binary)"),
            Protocols = [Protocol.Rest, Protocol.Grpc, Protocol.SignalR, Protocol.SignalRMessagePack],
        },
        Search(11, "search-3112", "Author - 1", 3_112, 1, 12_000) with
        {
            Sliwa = new("search \"Author - 1\" (3,112 rows) at 50 users: GraphQL has the best throughput") { Best = Protocol.GraphQL },
        },
        Search(12, "search-111", "Author - 100", 111, 100, 10_099) with
        {
            Sliwa = new("search \"Author - 100\" (111 rows): REST passes 300 requests/s") { RestPasses = 300 },
        },
        Search(13, "search-11", "Author - 1000", 11, 1_000, 10_009) with
        {
            Sliwa = new("search \"Author - 1000\" (11 rows) at 10 and 50 users: gRPC 3× weaker (REST ÷ gRPC throughput)")
            {
                RestOver = [(Protocol.Grpc, 3)],
                AtEachUserCount = true,
            },
        },
        new(14, "get-one", "Get one author", ScenarioGroup.Authors)
        {
            Request = Send(GetOne),
            Check = (r, _) =>
            {
                var author = (AuthorDto)r;
                if (author.Id != OneId || author.Books.Count != (OneId % 3) + 1)
                {
                    throw Checks.Wrong("get author", $"got {author}");
                }
            },
            Verify = async (c, ct) => Checks.SeededAuthor(await c.CallAsync(GetOne, ct), OneId, "get author"),
        },
        new(15, "list-100", "List 100 authors", ScenarioGroup.Authors)
        {
            Request = Send(List100),
            Check = (r, _) => Checks.Authors((IReadOnlyList<AuthorDto>)r, 100, 1, 100, "list 100"),
            Verify = async (c, ct) => Checks.SeededAuthors(await c.CallAsync(List100, ct), Enumerable.Range(1, 100).ToList(), "list 100"),
        },
        new(16, "create", "Create author", ScenarioGroup.Authors)
        {
            Request = async (c, marker, ct) => await c.CallAsync(Operation.CreateAuthor.With(marker, CreatedCountry), ct),
            Check = (r, marker) =>
            {
                var author = (AuthorDto)r;
                if (author.Id <= 0 || author.Name != marker || author.Country != CreatedCountry || author.Books.Count != 0)
                {
                    throw Checks.Wrong("create author", $"got {author}");
                }
            },
            Creates = true,
            Sliwa = new("create author: REST 2× GraphQL's and 4× gRPC's throughput") { RestOver = [(Protocol.GraphQL, 2), (Protocol.Grpc, 4)] },
        },
        .. ShapeOperations.Kinds.SelectMany((kind, i) => new[] { ShapeOne(17 + (2 * i), kind), ShapeCollection(18 + (2 * i), kind) }),
    ];

    /// <summary>The id of the shape fetched one at a time.</summary>
    public const int ShapeId = 42;

    /// <summary>The fixture files every service serves, for byte-exact comparison.</summary>
    public static PayloadFiles Files => LazyFiles.Value;

    public static IEnumerable<Scenario> In(ScenarioGroup group) => All.Where(s => s.Group == group);

    /// <summary>By command-line name (search-3112) or Bolanowski number (I..VII); null when there is none.</summary>
    public static Scenario? Find(string name) =>
        All.FirstOrDefault(s => s.Name.Equals(name, StringComparison.OrdinalIgnoreCase) || s.Bolanowski == name.ToUpperInvariant());

    /// <summary>A scenario the code names (defaults, paper claims); an unknown name is a bug.</summary>
    public static Scenario Named(string name) => Find(name) ?? throw new ArgumentException($"No scenario is named '{name}'.", nameof(name));

    public static IEnumerable<string> Names => All.Where(s => s.HasRequest).Select(s => s.Name);

    /// <summary>The seeded ids whose name contains the phrase ("Author - {id}" for 1..12,000).</summary>
    public static List<int> SeededIds(string phrase) =>
        Enumerable.Range(1, 12_000).Where(i => $"Author - {i}".Contains(phrase, StringComparison.Ordinal)).ToList();

    private static Scenario Search(int order, string name, string phrase, int rows, int firstId, int lastId)
    {
        var search = Operation.SearchAuthors.With(phrase, null);
        return new(order, name, $"Search \"{phrase}\" → {rows:N0} authors", ScenarioGroup.Authors)
        {
            Request = Send(search),
            Check = (r, _) => Checks.Authors((IReadOnlyList<AuthorDto>)r, rows, firstId, lastId, $"search \"{phrase}\""),
            Verify = async (c, ct) => Checks.SeededAuthors(await c.CallAsync(search, ct), SeededIds(phrase), $"search \"{phrase}\""),
            Phrase = phrase,
            Rows = rows,
        };
    }

    /// <summary>Erftbjerg's payload shapes: one object by id.</summary>
    private static Scenario ShapeOne(int order, ShapeOperations.Kind kind)
    {
        var expected = ShapeOperations.Get(kind.Name, ShapeId);
        var what = $"shape {kind.Name} {ShapeId}";
        var shape = Operation.GetShape.With(kind.Name, ShapeId);
        return new(order, $"{kind.Name}-1", $"Shape {kind.Name} ×1 ({kind.Objects} objects, {kind.Levels} levels, {kind.Values} values)", ScenarioGroup.Shapes)
        {
            Request = Send(shape),
            Check = (r, _) => Checks.Equal((ShapeDto)r, expected, what),
        };
    }

    /// <summary>Erftbjerg's payload shapes: a collection of 100, checked first, middle and last (whole in the verification).</summary>
    private static Scenario ShapeCollection(int order, ShapeOperations.Kind kind)
    {
        var expected = ShapeOperations.List(kind.Name, Limits.ShapeCountMax);
        var what = $"shapes {kind.Name} ×{Limits.ShapeCountMax}";
        var shapes = Operation.ListShapes.With(kind.Name, Limits.ShapeCountMax);
        return new(order, $"{kind.Name}-100", $"Shapes {kind.Name} ×{Limits.ShapeCountMax} ({kind.Values * Limits.ShapeCountMax:N0} values)", ScenarioGroup.Shapes)
        {
            Request = Send(shapes),
            Check = (r, _) => Checks.Shapes((IReadOnlyList<ShapeDto>)r, expected, what),
            Verify = async (c, ct) =>
            {
                if (!(await c.CallAsync(shapes, ct)).SequenceEqual(expected))
                {
                    throw Checks.Wrong(what, "a shape differs from the one built in memory");
                }
            },
        };
    }

    /// <summary>A call made once and sent as it is every time: its answer is what the scenario checks.</summary>
    private static ScenarioRequest Send<TResult>(OperationCall<TResult> call) =>
        async (c, _, ct) => (await c.CallAsync(call, ct))!;

    /// <summary>The text file's binary form: REST's /raw, or gRPC's bytes field, which already is binary.</summary>
    private static Task<byte[]> BinaryTextFileAsync(ILibraryOperations client, CancellationToken cancellationToken) =>
        client.Offers(Operation.GetTextFileRaw)
            ? client.CallAsync(TextFileRaw, cancellationToken)
            : DataOf(client.CallAsync(TextFile, cancellationToken));

    private static async Task<byte[]> DataOf(Task<FilePayload> file) => (await file).Data;

    /// <summary>The floors' check, whoever sends GET /baseline (the benchmark's stacks, the load command's engines): its fixed bytes.</summary>
    private static void CheckBaseline(object answer, string marker) => Checks.Bytes((byte[])answer, Floors.BaselineBody, "GET /baseline");

    /// <summary>The PDF's binary form: REST's /raw, or the stream of chunks gRPC and the hub send.</summary>
    private static Task<byte[]> BinaryPdfAsync(ILibraryOperations client, CancellationToken cancellationToken) =>
        client.CallAsync(client.Offers(Operation.GetPdfRaw) ? PdfRaw : StreamedPdf, cancellationToken);
}
