import { stripHtml } from './strip-html';

describe('stripHtml', () => {
  it('removes tags and keeps their text', () => {
    expect(stripHtml('<b>Beta</b>-blocking agents, <i>selective</i>')).toBe('Beta -blocking agents, selective');
  });

  it('drops script and style blocks with their content, and comments', () => {
    expect(stripHtml('Antacids<script>alert("x")</script><style>p{}</style><!-- note -->')).toBe('Antacids');
  });

  it('decodes entities once', () => {
    expect(stripHtml('Drugs for acid related disorders &amp; reflux &lt;GERD&gt; &#233;&#xe9; &amp;lt;')).toBe(
      'Drugs for acid related disorders & reflux <GERD> éé &lt;',
    );
  });

  it('leaves plain text and comparisons alone', () => {
    expect(stripHtml('  Insulins and analogues  ')).toBe('Insulins and analogues');
    expect(stripHtml('dose < 5 mg and > 1 mg')).toBe('dose < 5 mg and > 1 mg');
  });

  it('keeps unknown or out-of-range entities as written', () => {
    expect(stripHtml('&bogus; &#0; &#x110000;')).toBe('&bogus; &#0; &#x110000;');
  });
});
