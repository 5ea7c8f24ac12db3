-- Rate limits shared by every API process (lib/ip-limiter.ts dbLimits): one row per limit and key with the
-- times (epoch ms) of its calls inside the window. UNLOGGED: losing the counters in a crash only resets
-- the limits, and it spares the WAL one write per limited request.
CREATE UNLOGGED TABLE IF NOT EXISTS "rate_limit_hits" (
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"hits" bigint[] NOT NULL,
	"allowed" boolean DEFAULT true NOT NULL,
	CONSTRAINT "rate_limit_hits_pkey" PRIMARY KEY("bucket","key")
);
