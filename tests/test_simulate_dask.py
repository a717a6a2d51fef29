"""Simulations on Dask (the optional extra): a LocalCluster of 2 worker
processes on loopback plays the same games as a local run with the same
seed, through simulate(executor=...) and through the command line's
--scheduler and --workers."""

from __future__ import annotations

import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from rummy import GameError  # noqa: E402
from rummy.simulate import cli_main, dask_executor, simulate  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0") as c:
        yield c


def test_dask_executor_gives_the_same_games_as_a_local_run(cluster) -> None:
    local = simulate("tre_tretton", "greedy,expert", games=4, seed=11, progress=False)
    with distributed.Client(cluster) as client:
        pool = client.get_executor(pure=False)
        on_dask = simulate("tre_tretton", "greedy,expert", games=4, seed=11, executor=pool,
                           progress=False)
        # both workers played (tasks are spread over the cluster's processes)
        assert len(client.scheduler_info()["workers"]) == 2
    pd.testing.assert_frame_equal(local, on_dask)


def test_cli_scheduler_flag_runs_on_the_cluster(cluster, tmp_path, capsys) -> None:
    here, there = tmp_path / "local.csv", tmp_path / "dask.csv"
    args = ["three_thirteen", "--bots", "greedy,random", "--games", "3", "--seed", "5",
            "--no-progress"]
    assert cli_main(args + ["--jobs", "1", "--csv", str(here)]) == 0
    assert cli_main(args + ["--scheduler", cluster.scheduler_address, "--csv", str(there)]) == 0
    pd.testing.assert_frame_equal(pd.read_csv(here), pd.read_csv(there))
    assert "Wrote 6 rows" in capsys.readouterr().out


def test_cli_workers_flag_starts_a_local_cluster(tmp_path) -> None:
    here, there = tmp_path / "local.csv", tmp_path / "dask.csv"
    args = ["gin_three", "--bots", "random", "--games", "2", "--seed", "9", "--no-progress"]
    assert cli_main(args + ["--jobs", "1", "--csv", str(here)]) == 0
    assert cli_main(args + ["--workers", "2", "--csv", str(there)]) == 0
    pd.testing.assert_frame_equal(pd.read_csv(here), pd.read_csv(there))


def test_where_the_games_run_is_said_once() -> None:
    with pytest.raises(GameError, match="--jobs and --workers both say where the games run"):
        cli_main(["three_thirteen", "--jobs", "2", "--workers", "2"])
    with pytest.raises(GameError, match="--workers must be at least 1, not 0"):
        cli_main(["three_thirteen", "--workers", "0"])
    with pytest.raises(GameError, match="give either scheduler"), dask_executor():
        pass


def test_no_scheduler_at_the_address_is_a_clear_error() -> None:
    with (pytest.raises(GameError, match="no Dask scheduler answers at 'tcp://127.0.0.1:9'"),
          dask_executor("tcp://127.0.0.1:9")):
        pass
