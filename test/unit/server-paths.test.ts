import { hideServerPaths } from '../../src/lib/server-paths';

describe('hideServerPaths', () => {
  it.each([
    ["ENOENT: no such file or directory, open '/work/.data/storage/ab/cd/model.zip'", "ENOENT: no such file or directory, open 'model.zip'"],
    ['xmllint failed on /tmp/sdc-xyz/instance.xml: line 3', 'xmllint failed on instance.xml: line 3'],
    ['EACCES: permission denied, mkdir /srv/storage/', 'EACCES: permission denied, mkdir …'],
    ['at file:///home/app/dist/src/x.js', 'at x.js'],
    ['(path=/var/lib/app/data.csv)', '(path=data.csv)'],
  ])('%s', (message, expected) => {
    expect(hideServerPaths(message)).toBe(expected);
  });

  it.each([
    'Unknown schema https://semanticdatacharter.com/ns/sdc4/sdc4.xsd',
    'A ratio of 1/2 is fine',
    'No published component or cluster has ct_id abc.',
  ])('leaves %s alone', (message) => {
    expect(hideServerPaths(message)).toBe(message);
  });
});
