import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findCpuCgroup,
  MEDIA_CGROUP,
  prepareMediaCgroup,
  SERVER_CGROUP,
  type WriteFile,
} from './media-cgroup.ts';

// Real /proc texts: a Debian host with cgroup v1 controllers beside an empty v2 mount; systemd's unified v2;
// a container that sees only its part of the host's v1 hierarchy.
const HYBRID_CGROUP = '9:name=systemd:/\n4:memory:/process_api/b10\n2:cpuacct:/\n1:cpu:/\n0::/\n';
const HYBRID_MOUNTS = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const UNIFIED_CGROUP = '0::/system.slice/kadr.service\n';
const UNIFIED_MOUNTS =
  '25 30 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot';
const CONTAINER_CGROUP = '5:cpu,cpuacct:/docker/4f1c\n0::/\n';
const CONTAINER_MOUNTS =
  '700 690 0:29 /docker/4f1c /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct';

describe('findCpuCgroup', () => {
  it('takes the v1 hierarchy with the cpu controller over an empty v2 mount', () => {
    expect(findCpuCgroup(HYBRID_CGROUP, HYBRID_MOUNTS)).toEqual({ version: 1, dir: '/sys/fs/cgroup/cpu' });
  });

  it('takes the unified hierarchy where no v1 one holds cpu', () => {
    expect(findCpuCgroup(UNIFIED_CGROUP, UNIFIED_MOUNTS)).toEqual({
      version: 2,
      dir: '/sys/fs/cgroup/system.slice/kadr.service',
    });
  });

  it('places the cgroup under the mount’s own root, and gives up outside it', () => {
    expect(findCpuCgroup(CONTAINER_CGROUP, CONTAINER_MOUNTS)).toEqual({
      version: 1,
      dir: '/sys/fs/cgroup/cpu,cpuacct',
    });
    expect(findCpuCgroup('5:cpu,cpuacct:/other\n', CONTAINER_MOUNTS)).toBeNull();
    expect(findCpuCgroup(HYBRID_CGROUP, '')).toBeNull();
  });
});

describe('prepareMediaCgroup', () => {
  const dirs: string[] = [];
  const tree = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-cgroup-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes kadr-media under the own v1 group and marks it idle', () => {
    const dir = tree({});
    expect(prepareMediaCgroup({ version: 1, dir })).toBe(path.join(dir, MEDIA_CGROUP));
    expect(fs.readFileSync(path.join(dir, MEDIA_CGROUP, 'cpu.idle'), 'utf8')).toBe('1');
    // Twice (a second server, a restarted launcher) finds the same group.
    expect(prepareMediaCgroup({ version: 1, dir })).toBe(path.join(dir, MEDIA_CGROUP));
  });

  it('in v2, hands the cpu controller to the children first, and gives up where there is none', () => {
    const dir = tree({ 'cgroup.controllers': 'cpuset cpu io memory pids\n', 'cgroup.subtree_control': '\n' });
    expect(prepareMediaCgroup({ version: 2, dir })).toBe(path.join(dir, MEDIA_CGROUP));
    expect(fs.readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8')).toBe('+cpu');
    const without = tree({ 'cgroup.controllers': 'memory pids\n', 'cgroup.subtree_control': '\n' });
    expect(prepareMediaCgroup({ version: 2, dir: without })).toBeNull();
    expect(fs.existsSync(path.join(without, MEDIA_CGROUP))).toBe(false);
  });

  /**
   * cgroup v2's "no internal processes" rule on plain files: `+cpu` in a group's `cgroup.subtree_control` is
   * refused (EBUSY) while its own `cgroup.procs` names a process, and writing a pid to a `cgroup.procs` moves it
   * there from wherever it was in the tree.
   */
  const kernelV2 =
    (root: string): WriteFile =>
    (file, text) => {
      if (path.basename(file) === 'cgroup.subtree_control' && text === '+cpu') {
        const procs = path.join(path.dirname(file), 'cgroup.procs');
        if (fs.readFileSync(procs, 'utf8').trim() !== '') {
          throw Object.assign(new Error('EBUSY: device or resource busy'), { code: 'EBUSY' });
        }
      }
      if (path.basename(file) === 'cgroup.procs') {
        for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
          if (path.basename(entry) !== 'cgroup.procs') continue;
          const other = path.join(root, entry);
          const left = fs
            .readFileSync(other, 'utf8')
            .split('\n')
            .filter((line) => line && line !== text);
          fs.writeFileSync(other, left.map((line) => `${line}\n`).join(''));
        }
        fs.appendFileSync(file, `${text}\n`);
        return;
      }
      fs.writeFileSync(file, text);
    };
  const v2Group = (procs: string) =>
    tree({
      'cgroup.controllers': 'cpu memory pids\n',
      'cgroup.subtree_control': '\n',
      'cgroup.procs': procs,
    });
  const procsOf = (dir: string) => fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').trim();

  it('in v2, a group holding the server moves it into kadr-server first, then hands cpu to kadr-media', () => {
    const dir = v2Group('4242\n');
    const kernel = kernelV2(dir);
    const leaf = path.join(dir, SERVER_CGROUP);
    expect(prepareMediaCgroup({ version: 2, dir }, 4242, kernel)).toBe(path.join(dir, MEDIA_CGROUP));
    expect(procsOf(dir)).toBe('');
    expect(procsOf(leaf)).toBe('4242');
    expect(fs.readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8')).toBe('+cpu');
    expect(fs.readFileSync(path.join(dir, MEDIA_CGROUP, 'cpu.idle'), 'utf8')).toBe('1');
  });

  it('in v2, a group that still holds others after the server moved gets the server back, and no media group', () => {
    const dir = v2Group('4242\n777\n');
    const kernel = kernelV2(dir);
    expect(prepareMediaCgroup({ version: 2, dir }, 4242, kernel)).toBeNull();
    expect(procsOf(dir).split('\n').sort()).toEqual(['4242', '777']);
    expect(procsOf(path.join(dir, SERVER_CGROUP))).toBe('');
    expect(fs.readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8').trim()).toBe('');
    expect(fs.existsSync(path.join(dir, MEDIA_CGROUP))).toBe(false);
  });

  it('answers null where nothing is mounted or the group cannot be written', () => {
    expect(prepareMediaCgroup(null)).toBeNull();
    expect(prepareMediaCgroup({ version: 1, dir: '/proc/self/no-such-cgroup' })).toBeNull();
  });
});
