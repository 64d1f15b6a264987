package vtlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vtlab.data.judge.Spread;

/** The machine's record: its noise floor kept and read back, and a record of another machine not read as this one's. */
class MachineRecordTest {
    @TempDir
    Path dir;

    @Test
    void aNoiseFloorIsKeptAndReadBackAsThisMachinesOnly() throws Exception {
        Path file = dir.resolve("machines/h.json");
        assertNull(MachineRecord.noiseFloor(file), "none measured");
        MachineRecord.NoiseFloor floor = new MachineRecord.NoiseFloor("2026-12-07T01:00:00Z", "20261207T010000Z", "/x at 200 connections, virtual as shipped",
                Spread.of(new double[] {1000, 1040, 980, 1020}), Spread.of(new double[] {60}));
        MachineRecord.keep(file, floor);
        MachineRecord.NoiseFloor read = MachineRecord.noiseFloor(file);
        assertEquals(floor.rps(), read.rps());
        assertEquals(floor.scenario(), read.scenario());
        assertEquals(1, read.p99().units(), "one p99: no spread, kept as such");
        // the same file from a machine with another CPU is not this machine's floor
        Files.writeString(file, Files.readString(file).replace("\"cpus\" : " + Runtime.getRuntime().availableProcessors(), "\"cpus\" : 999"));
        assertNull(MachineRecord.noiseFloor(file));
    }
}
