import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlighted } from './Highlighted.tsx';

describe('a highlighted snippet', () => {
  it("marks the searched word and draws the snippet's emoji from the shipped set", () => {
    const { container } = render(<Highlighted text="Горы 🏔️ на рассвете 👍" forms={['рассвет']} />);
    expect(container.querySelector('mark')?.textContent).toBe('рассвете');
    const pictures = screen.getAllByRole('img');
    expect(pictures.map((img) => img.getAttribute('alt'))).toEqual(['🏔️', '👍']);
    expect(pictures.map((img) => img.getAttribute('src'))).toEqual(['/emoji/1f3d4.svg', '/emoji/1f44d.svg']);
    // The text reads as it was written.
    expect(container.textContent?.replace(/\s+/g, ' ')).toBe('Горы на рассвете ');
  });
});
