using System.Net.Http.Json;
using System.Security.Authentication;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Integration.Tests;

/// <summary>The REST service over HTTP and HTTPS, run on each database by the subclasses below.</summary>
public abstract class RestServiceTests(ServicesFixture fixture)
{
    public static readonly TheoryData<Transport> Transports = [Transport.Http, Transport.Https];

    private IProtocolClient Rest(Transport transport) => fixture.Client(Protocol.Rest, transport);

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task SearchCountsMatchTheSeed(Transport transport)
    {
        var client = Rest(transport);
        Assert.Equal(Expected.AuthorsMatchingAuthor1, (await client.SearchAuthorsAsync("Author - 1", null, Token)).Count);
        Assert.Equal(Expected.AuthorsMatchingAuthor100, (await client.SearchAuthorsAsync("Author - 100", null, Token)).Count);
        var eleven = await client.SearchAuthorsAsync("Author - 1000", null, Token);
        Assert.Equal(Expected.AuthorsMatchingAuthor1000, eleven.Count);
        Assert.Equal([1000, 10000, 10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008, 10009], eleven.Select(a => a.Id));
        Assert.Equal(
            [$"Book 1000.1, {1950 + (7_000 + 1) % 75}", $"Book 1000.2, {1950 + (7_000 + 2) % 75}"],
            eleven[0].Books.Select(b => $"{b.Title}, {b.Year}"));
        Assert.Equal(Shared.Domain.Data.LibrarySeed.Countries[1000 % 20], eleven[0].Country);
    }

    [Fact]
    public async Task TheSeedNumbersAuthorsAndTheirBooksInOrder()
    {
        var client = Rest(Transport.Http);
        Assert.Equal([1, 2], (await client.GetAuthorAsync(1, Token)).Books.Select(b => b.Id));
        Assert.Equal([3, 4, 5], (await client.GetAuthorAsync(2, Token)).Books.Select(b => b.Id));
        var last = await client.GetAuthorAsync(Shared.Domain.Data.LibrarySeed.AuthorCount, Token);
        Assert.Equal("Author - 12000", last.Name);
        Assert.Equal([Shared.Domain.Data.LibrarySeed.BookCount], last.Books.Select(b => b.Id));
        Assert.Equal(last, Checks.SeededAuthor(last, last.Id, "author 12000"));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task PayloadValuesAreExact(Transport transport)
    {
        var client = Rest(transport);
        Assert.Equal(int.MaxValue, await client.GetIntMaxAsync(Token));
        var ints = await client.GetIntsAsync(10_000, Token);
        Assert.Equal(Enumerable.Range(0, 10_000), ints);
        Assert.Equal("Hello World!", await client.CloneAsync("Hello World!", 1, Token));
        var lorem = await client.CloneAsync(PayloadOperations.LoremIpsum, 1_000, Token);
        Assert.Equal(615, PayloadOperations.LoremIpsum.Length);
        Assert.Equal(615_000, lorem.Length);
        Assert.Equal(string.Concat(Enumerable.Repeat(PayloadOperations.LoremIpsum, 1_000)), lorem);
        var sample = await client.GetSampleAsync(Token);
        Assert.Equal(PayloadOperations.Sample, sample);
        Assert.Equal(3, sample.Books.Count);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task FilesAreByteExactInJsonAndRaw(Transport transport)
    {
        var client = (RestProtocolClient)Rest(transport);
        Assert.InRange(Expected.TextFile.Length, 465_920 * 0.99, 465_920 * 1.01);
        Assert.InRange(Expected.Pdf.Length, 3_565_158 * 0.98, 3_565_158 * 1.02);
        Assert.Equal(Expected.Sha256(Expected.TextFile), Expected.Sha256(await client.GetTextFileAsync(Token)));
        Assert.Equal(Expected.Sha256(Expected.TextFile), Expected.Sha256(await client.GetTextFileBinaryAsync(Token)!));
        var pdf = await client.GetPdfAsync(Token);
        Assert.Equal(Expected.PdfBytes, pdf.Length);
        Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(pdf));
        Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(await client.GetPdfBinaryAsync(Token)!));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task CreateGetUpdateDeleteRoundTrip(Transport transport)
    {
        var client = Rest(transport);
        var before = await fixture.CountRowsAsync();
        var created = await client.CreateAuthorAsync("Wisława Szymborska 🌹", "Poland", Token);
        Assert.True(created.Id > 12_000);
        Assert.Empty(created.Books);
        Assert.Equal((before.Authors + 1, before.Books), await fixture.CountRowsAsync());
        Assert.Equal(created, await client.GetAuthorAsync(created.Id, Token));

        var updated = await client.UpdateAuthorAsync(created.Id, "Olga Tokarczuk", "Polska", Token);
        Assert.Equal(created with { Name = "Olga Tokarczuk", Country = "Polska" }, updated);
        Assert.Equal(updated, await client.GetAuthorAsync(created.Id, Token));

        await client.DeleteAuthorAsync(created.Id, Token);
        var gone = await Assert.ThrowsAsync<ProtocolClientException>(() => client.GetAuthorAsync(created.Id, Token));
        Assert.Equal("NOT_FOUND", gone.Code);
        Assert.Equal(before, await fixture.CountRowsAsync());
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task UnknownIdIs404Everywhere(Transport transport)
    {
        var client = Rest(transport);
        foreach (var call in new Func<Task>[]
                 {
                     () => client.GetAuthorAsync(999_999, Token),
                     () => client.UpdateAuthorAsync(999_999, "Name", "Country", Token),
                     () => client.DeleteAuthorAsync(999_999, Token),
                 })
        {
            var error = await Assert.ThrowsAsync<ProtocolClientException>(call);
            Assert.Equal("NOT_FOUND", error.Code);
            Assert.Equal("HTTP 404", error.ProtocolStatus);
            Assert.Equal("Author 999999 was not found.", error.Message);
        }
    }

    [Theory]
    [InlineData("' OR 1=1 --")]
    [InlineData("%")]
    [InlineData("_")]
    [InlineData("\"; DROP TABLE authors;--")]
    [InlineData("author - 1")]
    public async Task SearchPhrasesAreMatchedLiterally(string phrase)
    {
        var before = await fixture.CountRowsAsync();
        Assert.Empty(await Rest(Transport.Http).SearchAuthorsAsync(phrase, null, Token));
        Assert.Equal(before, await fixture.CountRowsAsync());
    }

    [Fact]
    public async Task WildcardCharactersInNamesAreFoundLiterally()
    {
        var client = Rest(Transport.Http);
        var author = await client.CreateAuthorAsync("100% pure_literal 'quoted'", "Nowhere", Token);
        try
        {
            Assert.Equal([author.Id], (await client.SearchAuthorsAsync("100%", null, Token)).Select(a => a.Id));
            Assert.Equal([author.Id], (await client.SearchAuthorsAsync("e_l", null, Token)).Select(a => a.Id));
            Assert.Equal([author.Id], (await client.SearchAuthorsAsync("'quoted'", null, Token)).Select(a => a.Id));
            Assert.Empty(await client.SearchAuthorsAsync("100%%", null, Token));
        }
        finally
        {
            await client.DeleteAuthorAsync(author.Id, Token);
        }
    }

    public static TheoryData<string> LimitCaseNames => [.. LimitCase.All.Select(c => c.Name)];

    [Theory]
    [MemberData(nameof(LimitCaseNames))]
    public async Task LimitsAreEnforcedAndNothingChanges(string name)
    {
        var limit = LimitCase.All.Single(c => c.Name == name);
        foreach (var transport in new[] { Transport.Http, Transport.Https })
        {
            var client = Rest(transport);
            var before = await fixture.CountRowsAsync();
            if (limit.Accepted)
            {
                await limit.Call(client, Token);
            }
            else
            {
                var error = await Assert.ThrowsAsync<ProtocolClientException>(() => limit.Call(client, Token));
                Assert.Equal("INVALID_ARGUMENT", error.Code);
                Assert.Equal("HTTP 400", error.ProtocolStatus);
                Assert.Contains(limit.Field!, error.Message);
            }

            Assert.Equal(before, await fixture.CountRowsAsync());
        }
    }

    [Fact]
    public async Task ErrorsAreProblemDetailsWithoutStackTraces()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http) };
        foreach (var (path, status, code) in new[]
                 {
                     ("api/payloads/ints?count=100001", 400, "INVALID_ARGUMENT"),
                     ("api/payloads/ints?count=abc", 400, "INVALID_ARGUMENT"),
                     ("api/authors/99999999999", 400, "INVALID_ARGUMENT"),
                     ("api/authors/999999", 404, "NOT_FOUND"),
                     ("api/authors/search?phrase=", 400, "INVALID_ARGUMENT"),
                 })
        {
            using var response = await http.GetAsync(path, Token);
            Assert.Equal(status, (int)response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            var body = await response.Content.ReadAsStringAsync(Token);
            Assert.DoesNotContain(" at ", body);
            Assert.DoesNotContain("Exception", body);
            using var json = JsonDocument.Parse(body);
            Assert.Equal(status, json.RootElement.GetProperty("status").GetInt32());
            if (code is not null)
            {
                Assert.Equal(code, json.RootElement.GetProperty("code").GetString());
            }
        }
    }

    [Fact]
    public async Task CreateReturns201WithLocation()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http) };
        using var response = await http.PostAsJsonAsync("api/authors", new { name = "Located", country = "Here" }, Token);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var id = (await response.Content.ReadFromJsonAsync<JsonElement>(Token)).GetProperty("id").GetInt32();
        Assert.Equal($"/api/authors/{id}", response.Headers.Location?.AbsolutePath);
        Assert.Equal(HttpStatusCode.NoContent, (await http.DeleteAsync($"api/authors/{id}", Token)).StatusCode);
    }

    [Fact]
    public async Task BodyOverOneMebibyteIsRefusedWith413()
    {
        var before = await fixture.CountRowsAsync();
        var json = $"{{\"name\":\"{new string('a', 2 * 1024 * 1024)}\",\"country\":\"x\"}}";
        using var response = await OversizedBody.PostAsync(fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http), "api/authors", json, Token);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.Equal(before, await fixture.CountRowsAsync());
        Assert.Equal(int.MaxValue, await Rest(Transport.Http).GetIntMaxAsync(Token));
    }

    [Fact]
    public async Task MalformedJsonIs400()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http) };
        await fixture.AssertRefusedWithNothingWrittenAsync(http, "api/authors", "{\"name\":");
    }

    [Fact]
    public async Task HttpsClientTrustingAnotherCertificateIsRefused()
    {
        using var stranger = ProjectCertificate.Create("localhost", TimeSpan.FromDays(1));
        await using var client = new RestProtocolClient(Transport.Https, fixture.ClientOptions with { TrustedCertificate = stranger });
        var error = await Assert.ThrowsAsync<HttpRequestException>(() => client.GetIntMaxAsync(Token));
        Assert.IsType<AuthenticationException>(error.InnerException);
    }

    [Fact]
    public async Task HttpsHostNameOutsideTheCertificateIsRefused()
    {
        // Dial the real service but ask for a name the certificate does not carry: the trusted certificate alone is not enough.
        var port = fixture.Addresses.RestHttps;
        using var handler = new SocketsHttpHandler
        {
            SslOptions = TlsTrust.Only(TlsTrust.Load()),
            ConnectCallback = async (_, token) =>
            {
                var socket = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
                await socket.ConnectAsync(IPAddress.Loopback, port, token);
                return new System.Net.Sockets.NetworkStream(socket, ownsSocket: true);
            },
        };
        using var http = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(10) };
        var error = await Assert.ThrowsAsync<HttpRequestException>(() => http.GetAsync($"https://not-in-the-certificate.test:{port}/healthz", Token));
        Assert.IsType<AuthenticationException>(error.InnerException);

        using var good = new HttpClient(new SocketsHttpHandler { SslOptions = TlsTrust.Only(TlsTrust.Load()) });
        Assert.Equal(HttpStatusCode.OK, (await good.GetAsync($"https://localhost:{port}/healthz", Token)).StatusCode);
    }

    [Fact]
    public async Task HealthzReportsHealthyAfterEverything()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.Rest, Transport.Http) };
        using var response = await http.GetAsync("healthz", Token);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var json = await response.Content.ReadFromJsonAsync<JsonElement>(Token);
        Assert.Equal("Healthy", json.GetProperty("checks").GetProperty("database").GetProperty("status").GetString());
        Assert.Equal("Healthy", json.GetProperty("checks").GetProperty("payload-files").GetProperty("status").GetString());
    }

    [Fact]
    public async Task SeedHasTheSpecifiedRowCounts()
    {
        await using var db = fixture.OpenDatabase();
        var author = await Rest(Transport.Http).GetAuthorAsync(12_000, Token);
        Assert.Equal("Author - 12000", author.Name);
        Assert.Equal(["Book 12000.1"], author.Books.Select(b => b.Title));
        Assert.Equal(1950 + (12_000 * 7 + 1) % 75, author.Books[0].Year);
    }
}

[Collection(SqliteCollection.Name)]
public sealed class RestOnSqliteTests(SqliteServices fixture) : RestServiceTests(fixture);

[Collection(PostgresCollection.Name)]
public sealed class RestOnPostgresTests(PostgresServices fixture) : RestServiceTests(fixture);
