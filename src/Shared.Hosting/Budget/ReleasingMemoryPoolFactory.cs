using System.Buffers;
using System.Collections.Concurrent;
using Microsoft.AspNetCore.Connections;

namespace ProtocolBench.Shared.Hosting.Budget;

/// <summary>
/// Kestrel's buffers, from a pool that gives its idle blocks back when asked. Kestrel's own pool keeps every 4 KiB block
/// it ever lent and evicts 5 % of the idle ones every 10 s, so the 50 to 100 MiB of blocks a burst of large answers leaves
/// behind took minutes to go. This one lends and takes back blocks the same way (pinned 4 KiB arrays in a concurrent
/// queue, so the measured paths see no difference) and drops all but <see cref="KeptAfterRelease"/> idle blocks when the
/// <see cref="ResponseBudget"/> calls <see cref="ReleaseIdle"/> after a burst, for the next collection to free.
/// By hand because the framework's pools are internal and cannot be told to let go.
/// </summary>
public sealed class ReleasingMemoryPoolFactory : IMemoryPoolFactory<byte>
{
    /// <summary>Idle blocks each pool keeps after a release: 1 MiB, what steady traffic reuses at once.</summary>
    public const int KeptAfterRelease = 0;

    private readonly ConcurrentDictionary<Pool, bool> _pools = new();

    public MemoryPool<byte> Create(MemoryPoolOptions? options = null)
    {
        var pool = new Pool(this);
        _pools[pool] = true;
        return pool;
    }

    /// <summary>Drops the idle blocks of every pool beyond <see cref="KeptAfterRelease"/>; returns the bytes dropped.</summary>
    public long ReleaseIdle()
    {
        long released = 0;
        foreach (var pool in _pools.Keys)
        {
            released += pool.ReleaseIdle(KeptAfterRelease);
        }

        return released;
    }

    private sealed class Pool(ReleasingMemoryPoolFactory factory) : MemoryPool<byte>
    {
        private const int BlockSize = 4096;

        private readonly ConcurrentQueue<Block> _idle = new();
        private volatile bool _disposed;

        public override int MaxBufferSize => BlockSize;

        public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThan(minBufferSize, BlockSize);
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _idle.TryDequeue(out var block) ? block : new Block(this);
        }

        public long ReleaseIdle(int keep)
        {
            long released = 0;
            while (_idle.Count > keep && _idle.TryDequeue(out _))
            {
                released += BlockSize;
            }

            return released;
        }

        protected override void Dispose(bool disposing)
        {
            _disposed = true;
            _idle.Clear();
            factory._pools.TryRemove(this, out _);
        }

        private sealed class Block(Pool pool) : IMemoryOwner<byte>
        {
            // Pinned, as Kestrel's are: sockets and TLS hand them to the operating system without pinning each time.
            public Memory<byte> Memory { get; } = GC.AllocateUninitializedArray<byte>(BlockSize, pinned: true);

            public void Dispose()
            {
                if (!pool._disposed)
                {
                    pool._idle.Enqueue(this);
                }
            }
        }
    }
}
