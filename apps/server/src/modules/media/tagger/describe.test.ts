import type { MediaTag } from '@kadr/contract';
import { expect, it, describe as suite } from 'vitest';
import { countedName, withName } from './coco-ru.ts';
import { describe } from './describe.ts';

const obj = (label: string, count = 1) => ({ label, count, name: countedName(label, count)! });
const tags = (...list: MediaTag[]) => new Set<MediaTag>(list);

suite('Russian object names with counts', () => {
  it('agrees the number with the noun', () => {
    expect(countedName('cat', 1)).toBe('кошка');
    expect(countedName('horse', 2)).toBe('две лошади');
    expect(countedName('dog', 3)).toBe('три собаки');
    expect(countedName('bicycle', 2)).toBe('два велосипеда');
    expect(countedName('person', 2)).toBe('два человека');
    expect(countedName('person', 5)).toBe('пять человек');
    expect(countedName('giraffe', 6)).toBe('шесть жирафов');
    expect(countedName('person', 14)).toBe('много людей');
    expect(countedName('kite', 1)).toBe('воздушный змей');
    expect(countedName('clock', 3)).toBe('часы');
    expect(countedName('unicorn', 1)).toBeNull();
  });

  it('says «с» or «со» before the instrumental', () => {
    expect(withName('bicycle')).toBe('с велосипедом');
    expect(withName('truck')).toBe('с грузовиком');
    expect(withName('dining table')).toBe('со столом');
  });
});

suite('alt text sentence', () => {
  it('mentions an animal whose species was not named beside the things that were', () => {
    // Darknet's dog beside a bicycle and a pickup: the dog scored under its bar, the animal tag passed.
    expect(
      describe({
        kind: 'image',
        objects: [obj('car'), obj('bicycle')],
        tags: tags('animals', 'vehicles', 'city'),
        leadArea: 0.2,
      }),
    ).toBe('Машина, велосипед и животное на улице');
    // A named animal is not doubled, and a person is not an animal.
    expect(
      describe({
        kind: 'image',
        objects: [obj('dog'), obj('bicycle')],
        tags: tags('animals'),
        leadArea: 0.2,
      }),
    ).toBe('Собака рядом с велосипедом');
    expect(
      describe({ kind: 'image', objects: [obj('person')], tags: tags('animals', 'person'), leadArea: 0.2 }),
    ).toBe('Человек и животное');
  });

  it('a lone large subject is a close-up', () => {
    expect(describe({ kind: 'image', objects: [obj('cat')], tags: tags('cats'), leadArea: 0.6 })).toBe(
      'Кошка крупным планом',
    );
    expect(describe({ kind: 'image', objects: [obj('cat')], tags: tags('cats'), leadArea: 0.1 })).toBe(
      'Кошка',
    );
  });

  it('a living subject beside a thing, on the street', () => {
    expect(
      describe({
        kind: 'image',
        objects: [obj('dog'), obj('bicycle')],
        tags: tags('dogs', 'vehicles', 'city'),
        leadArea: 0.2,
      }),
    ).toBe('Собака рядом с велосипедом на улице');
  });

  it('lists up to three subjects with counts', () => {
    expect(
      describe({
        kind: 'video',
        objects: [obj('horse', 2), obj('person'), obj('dog'), obj('car')],
        tags: tags(),
        leadArea: 0.2,
      }),
    ).toBe('Две лошади, человек и собака');
  });

  it('without named objects says what the picture is like, never a person', () => {
    const text = describe({ kind: 'image', objects: [], tags: tags('night', 'cool'), leadArea: 0 });
    expect(text).toBe('Тёмный кадр в холодных тонах без людей и заметных предметов');
    expect(describe({ kind: 'video', objects: [], tags: tags('bright'), leadArea: 0 })).toBe(
      'Светлое видео без людей и заметных предметов',
    );
    expect(describe({ kind: 'image', objects: [], tags: tags('animals', 'warm'), leadArea: 0 })).toBe(
      'Животное в кадре',
    );
  });
});
