"""Reads one MLflow run back with the MLflow python client and prints it as JSON:
{"experiment_name", "run_name", "status", "params", "metrics", "tags", "artifacts"}.

    mlflow_readback.py TRACKING_URI RUN_ID
"""
import json
import sys

from mlflow.tracking import MlflowClient

uri, run_id = sys.argv[1], sys.argv[2]
client = MlflowClient(tracking_uri=uri)
run = client.get_run(run_id)


def walk(path=None):
    out = []
    for f in client.list_artifacts(run_id, path):
        out.extend(walk(f.path) if f.is_dir else [f.path])
    return out


print(json.dumps({
    "experiment_name": client.get_experiment(run.info.experiment_id).name,
    "run_name": run.info.run_name,
    "status": run.info.status,
    "params": run.data.params,
    "metrics": run.data.metrics,
    "tags": run.data.tags,
    "artifacts": sorted(walk()),
}))
