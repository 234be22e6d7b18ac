using System.Text;
using MessagePack;
using MessagePack.Formatters;
using MessagePack.Resolvers;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// MessagePack's strings, read as UTF-8 that must be valid. MessagePack-CSharp decodes a string's bytes leniently, turning
/// bytes that are not UTF-8 into U+FFFD, so <c>CreateAuthor</c> stored "a\uFFFDa" for "a\xFFa"; every other protocol and
/// SignalR's JSON refuse those bytes. Here they throw, which SignalR reports as arguments that do not bind: the same
/// <c>INVALID_ARGUMENT</c>. No setting of the library does this (its string formatter is fixed), hence this one.
/// </summary>
internal sealed class StrictUtf8Strings : IMessagePackFormatter<string?>
{
    private static readonly UTF8Encoding Strict = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private StrictUtf8Strings()
    {
    }

    /// <summary>The hub protocol's own resolver, with strings read by this formatter.</summary>
    public static MessagePackSerializerOptions Apply(MessagePackSerializerOptions options) =>
        options.WithResolver(CompositeResolver.Create([new StrictUtf8Strings()], [options.Resolver]));

    public void Serialize(ref MessagePackWriter writer, string? value, MessagePackSerializerOptions options) => writer.Write(value);

    public string? Deserialize(ref MessagePackReader reader, MessagePackSerializerOptions options)
    {
        if (reader.ReadStringSequence() is not { } bytes)
        {
            return null;
        }

        try
        {
            return bytes.IsSingleSegment ? Strict.GetString(bytes.FirstSpan) : Strict.GetString(bytes.ToArray());
        }
        catch (DecoderFallbackException e)
        {
            throw new MessagePackSerializationException("A string is not valid UTF-8.", e);
        }
    }
}
