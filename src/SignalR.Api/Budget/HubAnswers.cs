using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.SignalR.Api.Operations;

namespace ProtocolBench.SignalR.Api.Budget;

/// <summary>
/// The hub's side of the <see cref="ResponseBudget"/>: each invocation reserves its largest possible answer before the hub
/// method runs (the same sizes as on the other services), a list of authors is charged its real size once built, and the
/// reservation is held until the answer has been sent (<see cref="AnswerLedger"/>). Without it, a hundred WebSockets that
/// ask for the PDF and never read hold a hundred answers. The files need none: they are written from the copy every caller
/// shares (<see cref="SplicedCompletions"/>), a piece at a time. StreamPdf needs none either: it writes 64 KiB chunks of the file
/// and waits for each, as gRPC's does. An invocation sent without an invocation id gets no answer: its reservation ends
/// with its method, since the answer is built all the same.
/// </summary>
internal sealed class HubAnswers(ResponseBudget budget, PayloadFiles files, SharedAnswers answers) : IHubFilter
{
    public Task OnConnectedAsync(HubLifetimeContext context, Func<HubLifetimeContext, Task> next)
    {
        if (AnswerLedger.Open(context.Context, answers) is { } ledger)
        {
            context.Context.Items[typeof(AnswerLedger)] = ledger;
        }

        return next(context);
    }

    public Task OnDisconnectedAsync(HubLifetimeContext context, Exception? exception, Func<HubLifetimeContext, Exception?, Task> next)
    {
        Ledger(context.Context)?.Dispose();
        return next(context, exception);
    }

    public async ValueTask<object?> InvokeMethodAsync(HubInvocationContext invocation, Func<HubInvocationContext, ValueTask<object?>> next)
    {
        var operation = HubOperationBindings.OperationOf(invocation);
        if (Ledger(invocation.Context) is not { } ledger || operation is { IsStreamed: true })
        {
            return await next(invocation);
        }

        var unanswered = CountedHubProtocol.IsUnanswered;
        // SignalR runs a connection's invocations one at a time, each after the answer before it has been written.
        ledger.ReleaseWritten();
        // A file is written from the copy every caller shares (SplicedCompletions): nothing to reserve.
        var size = operation is { IsShared: false } ? operation.MostAnswered(HubOperationBindings.ArgumentsOf(invocation), files) : 0;
        var reservation = await budget.ReserveAsync(ledger.Upgrade, size, invocation.Context.ConnectionAborted);
        object? answer;
        try
        {
            answer = await next(invocation);
        }
        catch
        {
            reservation?.Dispose();
            throw;
        }

        if (answer is IReadOnlyList<AuthorDto> authors)
        {
            reservation = budget.Charge(ledger.Upgrade, reservation, ResponseSize.Authors(authors));
        }

        if (reservation is not null)
        {
            if (answer is null || unanswered)
            {
                reservation.Dispose();
            }
            else
            {
                ledger.Expect(answer, reservation);
            }
        }

        return answer;
    }

    private static AnswerLedger? Ledger(HubCallerContext context) =>
        context.Items.TryGetValue(typeof(AnswerLedger), out var ledger) ? ledger as AnswerLedger : null;
}
