import { describe, expect, it } from 'vitest';
import { mayNeedScan, mayNeedScanParts, scanEnvelope, shapeOf, shapeOfParts } from './envelope-scan';

const scan = (text: string) => scanEnvelope(Buffer.from(text));

describe('scanEnvelope', () => {
  it('finds the id and method of a request whatever the member order', () => {
    expect(scan('{"id":7,"method":"thread/start","params":{}}')).toMatchObject({
      shape: 'object',
      id: '7',
      method: 'thread/start',
      isResponse: false,
    });
    expect(scan('{"params":{"id":1,"method":"x"},"method":"turn/start","id":"a-1"}')).toMatchObject({
      id: '"a-1"',
      method: 'turn/start',
    });
  });

  it('recognises responses by a top-level result or error, not by nested ones', () => {
    expect(scan('{"id":3,"result":{"method":"nested"}}')).toMatchObject({
      id: '3',
      method: undefined,
      isResponse: true,
    });
    expect(scan(' {"error":{"code":-1,"message":"m"} , "id" : 0 }')).toMatchObject({ id: '0', isResponse: true });
    expect(scan('{"method":"x","params":{"result":1,"id":2}}')).toMatchObject({
      id: undefined,
      method: 'x',
      isResponse: false,
    });
  });

  it('steps over strings holding quotes, escaped backslashes and brackets', () => {
    const text = JSON.stringify({ params: { text: 'a "quoted" } ] \\ \\" {[' }, method: 'm\u00e9thod', id: 'x"y' });
    expect(scan(text)).toMatchObject({ id: JSON.stringify('x"y'), method: 'm\u00e9thod' });
    expect(scan('{"method":"bridge\\/hello","id":1}').method).toBe('bridge/hello');
  });

  it('classifies a method holding an invalid escape as garbage instead of throwing', () => {
    expect(scan('{"id":1,"method":"bad\\q"}').shape).toBe('invalid');
  });

  it('classifies blanks, arrays and garbage', () => {
    expect(scan('  \n').shape).toBe('blank');
    expect(scan('[{"id":1}]').shape).toBe('array');
    expect(scan('hello').shape).toBe('invalid');
    expect(scan('{"id":1,').shape).toBe('invalid');
    expect(scan('{"params":{"a":"unterminated}').shape).toBe('invalid');
    expect(scan('{"id" 1}').shape).toBe('invalid');
    expect(scan('{}')).toMatchObject({ shape: 'object', id: undefined, method: undefined });
  });
});

describe('shapeOf', () => {
  it('looks only at the first and last non-blank bytes', () => {
    expect(shapeOf(Buffer.from(' {"a":1}\r'))).toBe('object');
    expect(shapeOf(Buffer.from('[1,2]'))).toBe('array');
    expect(shapeOf(Buffer.from('{"a":'))).toBe('invalid');
    expect(shapeOf(Buffer.from('Loading...'))).toBe('invalid');
    expect(shapeOf(Buffer.from(' \t'))).toBe('blank');
  });
});

describe('mayNeedScan', () => {
  it('lets plain notifications through and catches ids and bridge messages, even across buffer seams', () => {
    expect(mayNeedScan(Buffer.from('{"method":"initialized","params":{"text":"idle"}}'))).toBe(false);
    expect(mayNeedScan(Buffer.from('{"method":"x","id":1}'))).toBe(true);
    expect(mayNeedScan(Buffer.from('{"method":"bridge/hello"}'))).toBe(true);
    const text = '{"method":"bridge/chunk","params":{}}';
    for (let cut = 1; cut < text.length; cut++) {
      expect(mayNeedScanParts([Buffer.from(text.slice(0, cut)), Buffer.from(text.slice(cut))])).toBe(true);
    }
    expect(mayNeedScanParts([Buffer.from('{"a":"'), Buffer.from('b"}')])).toBe(false);
  });

  it('catches a key split over three buffers whose middle one is a single byte (found by a property test)', () => {
    expect(mayNeedScanParts([Buffer.from('{"'), Buffer.from('i'), Buffer.from('d":1,"method":"x"}')])).toBe(true);
    expect(
      mayNeedScanParts([Buffer.from('{"method":"'), Buffer.from('b'), Buffer.from('r'), Buffer.from('idge/hello"}')]),
    ).toBe(true);
  });

  it('reads the shape of a message split over buffers', () => {
    expect(shapeOfParts([Buffer.from(' {"a"'), Buffer.from(':1} ')], 11)).toBe('object');
    expect(shapeOfParts([Buffer.from('[1'), Buffer.from(',2]')], 5)).toBe('array');
    expect(shapeOfParts([Buffer.from('  '), Buffer.from('{}')], 4)).toBe('object');
    expect(shapeOfParts([Buffer.from('{"a"'), Buffer.from(':')], 5)).toBe('invalid');
  });
});
