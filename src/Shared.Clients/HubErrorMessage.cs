using Microsoft.AspNetCore.SignalR;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// Reads the code back out of a hub error. SignalR delivers only a message; the service puts the code and the field first
/// ("INVALID_ARGUMENT count: ..."), also for arguments that do not bind (INVALID_ARGUMENT, as on the other protocols) and an
/// unknown method (UNIMPLEMENTED, as on gRPC). A hub that lets SignalR's own words lead ("An unexpected error occurred
/// invoking 'GetInts' on the server. HubException: INVALID_ARGUMENT ...") is read past them. Anything else is INTERNAL.
/// </summary>
public static class HubErrorMessage
{
    private const string Marker = "HubException: ";

    public static ProtocolClientException Translate(HubException e)
    {
        var message = e.Message;
        var at = message.LastIndexOf(Marker, StringComparison.Ordinal);
        var own = at >= 0 ? message[(at + Marker.Length)..] : message;
        var end = own.IndexOfAny([' ', ':']);
        var code = end > 0 ? own[..end] : own;
        if (code.Length > 0 && code.All(c => char.IsAsciiLetterUpper(c) || c == '_'))
        {
            var colon = own.IndexOf(": ", StringComparison.Ordinal);
            return new ProtocolClientException(code, colon > 0 ? own[(colon + 2)..] : own, $"SignalR {code}", e);
        }

        return new ProtocolClientException("INTERNAL", message, "SignalR INTERNAL", e);
    }
}
