// bullmq workload: jobs on named queues, a Worker that completes some and fails some, delayed and prioritized
// jobs, custom job ids, job logs, a flow (parent with children) and a repeatable job (a job scheduler where the
// installed bullmq has them). Arguments: JSON {port, db, prefix, queues, jobs, seed, removeOnComplete}.
"use strict";
const { Queue, Worker, FlowProducer } = require("bullmq");

const cfg = JSON.parse(process.argv[2]);
let state = cfg.seed >>> 0;
function rand() {
  state = (state * 1664525 + 1013904223) >>> 0;
  return state / 4294967296;
}
function pick(items) {
  return items[Math.floor(rand() * items.length)];
}
const connection = { host: "127.0.0.1", port: cfg.port, db: cfg.db, maxRetriesPerRequest: null };
const base = cfg.prefix ? { connection, prefix: cfg.prefix } : { connection };

async function main() {
  const [mailName, mediaName, reportName] = cfg.queues;
  const mail = new Queue(mailName, base);
  const media = new Queue(mediaName, base);
  const reports = new Queue(reportName, base);
  for (let i = 0; i < cfg.jobs; i++) {
    const r = rand();
    if (r < 0.4) {
      const failing = rand() < 0.08;
      await mail.add("send-email", { userId: Math.floor(rand() * 250000), template: failing ? "legacy-newsletter" : pick(["welcome", "invoice"]) }, { attempts: failing ? 2 : 1 });
    } else if (r < 0.8) {
      await media.add("resize-image", { path: `uploads/${Math.floor(rand() * 1e9).toString(16)}.jpg`, width: pick([64, 256]) }, { priority: pick([0, 0, 1, 5]) });
    } else {
      const order = 1000000 + Math.floor(rand() * 8999999);
      await mail.add("send-invoice", { order }, { jobId: `invoice-${order}` });
    }
  }
  const processor = async (job) => {
    if (job.data.template === "legacy-newsletter") throw new Error("template missing: legacy-newsletter");
    await job.log(`processing ${job.name}`);
    return { ok: true, name: job.name };
  };
  const workerOpts = { ...base, concurrency: 4, removeOnComplete: cfg.removeOnComplete };
  const workers = [new Worker(mailName, processor, workerOpts), new Worker(mediaName, processor, workerOpts)];
  const drained = async (q) => {
    for (;;) {
      const counts = await q.getJobCounts("wait", "active", "prioritized", "delayed");
      if (counts.wait + counts.active + counts.prioritized + counts.delayed === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await drained(mail);
  await drained(media);
  for (let i = 0; i < 30; i++) {
    await mail.add("send-digest", { userId: Math.floor(rand() * 250000) }, { delay: 60000 * (10 + Math.floor(rand() * 600)) });
  }
  for (let i = 0; i < 40; i++) {
    await reports.add("monthly-report", { account: Math.floor(rand() * 5000), month: "2025-10" });
  }
  const flows = new FlowProducer(base);
  for (let i = 0; i < 5; i++) {
    await flows.add({
      name: "build-export", queueName: reportName, data: { export: i },
      children: [1, 2, 3].map((part) => ({ name: "export-part", queueName: reportName, data: { part } })),
    });
  }
  if (typeof reports.upsertJobScheduler === "function") {
    await reports.upsertJobScheduler("nightly-cleanup", { pattern: "0 3 * * *" }, { name: "cleanup", data: {} });
    await reports.upsertJobScheduler("hourly-sync", { every: 3600000 }, { name: "sync", data: {} });
  } else {
    await reports.add("cleanup", {}, { repeat: { pattern: "0 3 * * *" } });
    await reports.add("sync", {}, { repeat: { every: 3600000 } });
  }
  for (const w of workers) await w.close();
  await flows.close();
  for (const q of [mail, media, reports]) await q.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
